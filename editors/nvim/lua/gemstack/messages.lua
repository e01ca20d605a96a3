-- The server's messages (window/showMessage), shown without a hit-enter prompt.
--
-- Neovim shows a message longer than the command line as several lines and then waits for
-- ENTER; 0.7 also prints the server's messages raw ("LSP[gemstack][Info] ..."). So a message
-- that does not fit is shown as its first sentence (shortened at word boundaries when needed,
-- never cut inside a word) with a pointer to :GemstackMessages, which opens the full text of
-- the recent messages in a floating window. Messages that fit are shown as they are.

local M = {}

--- How many messages :GemstackMessages keeps.
M.KEEP = 50
M.PREFIX = "gemstack: "
M.MORE = " (:GemstackMessages)"

--- The recent messages, oldest first: { message, level, time }.
M.history = {}

local LEVELS = {
  [1] = vim.log.levels.ERROR,
  [2] = vim.log.levels.WARN,
  [3] = vim.log.levels.INFO,
  [4] = vim.log.levels.DEBUG,
}

local function width(text)
  return vim.fn.strdisplaywidth(text)
end

--- The columns a message may take without a hit-enter prompt.
function M.space()
  local space = tonumber(vim.v.echospace) or 0
  if space <= 0 then
    space = vim.o.columns - 12
  end
  return math.max(space, 20)
end

--- Cuts `text` at the last space that keeps it within `limit` columns, with an ellipsis.
local function cut(text, limit)
  if width(text) <= limit then
    return text
  end
  local out = ""
  for word in text:gmatch("%S+") do
    local next_out = out == "" and word or (out .. " " .. word)
    if width(next_out .. " …") > limit then
      break
    end
    out = next_out
  end
  if out == "" then
    out = vim.fn.strcharpart(text, 0, limit - 2)
  end
  return out .. " …"
end

--- A short form of `message` within `limit` columns, and whether it is shorter than the
--- message: the first sentence, then without its parentheses, then with paths reduced to
--- their last part, then the words before its first colon, else cut at a word.
function M.summarize(message, limit)
  local text = vim.trim((message:gsub("%s+", " ")))
  if width(text) <= limit then
    return text, false
  end
  local first = text:match("^(.-[%.!?])%s") or text
  if width(first) <= limit then
    return first, true
  end
  local bare = vim.trim((first:gsub("%s*%b()", "")))
  if width(bare) <= limit then
    return bare, true
  end
  local short = bare:gsub("[%w%._%-]*/[%w%._%-/]*/([%w%._%-]+)", "%1")
  if width(short) <= limit then
    return short, true
  end
  -- "Context capsule written: <path> ..." on a narrow screen: what happened, before the colon.
  local headline = short:match("^([^:]-):%s")
  if headline and width(headline) <= limit and width(headline) >= 12 then
    return headline, true
  end
  return cut(short, limit), true
end

--- Shows a message: whole when it fits, else its summary and where to read the rest.
function M.show(message, level)
  table.insert(M.history, { message = message, level = level, time = os.time() })
  while #M.history > M.KEEP do
    table.remove(M.history, 1)
  end
  local space = M.space() - width(M.PREFIX)
  local summary, shortened = M.summarize(message, space)
  if shortened then
    summary, shortened = M.summarize(message, space - width(M.MORE))
    summary = summary .. M.MORE
  end
  vim.notify(M.PREFIX .. summary, level)
  return summary
end

--- The handler of window/showMessage for the Gemstack client.
function M.handler(_, result, ctx)
  if type(result) ~= "table" or type(result.message) ~= "string" then
    return vim.NIL
  end
  local level = LEVELS[result.type] or vim.log.levels.INFO
  if level == vim.log.levels.DEBUG then
    return vim.NIL -- a log message: the server's log has it
  end
  M.show(result.message, level)
  return vim.NIL
end

local LEVEL_NAMES = {
  [vim.log.levels.ERROR] = "error",
  [vim.log.levels.WARN] = "warning",
  [vim.log.levels.INFO] = "info",
}

--- The lines :GemstackMessages shows (newest last), wrapped to `wrap` columns.
function M.lines(wrap)
  local lines = {}
  for _, m in ipairs(M.history) do
    local head = os.date("%H:%M:%S", m.time) .. " " .. (LEVEL_NAMES[m.level] or "info") .. ": "
    local line = head
    for word in m.message:gmatch("%S+") do
      if width(line) + 1 + width(word) > wrap and line ~= head then
        table.insert(lines, line)
        line = "  " .. word
      else
        line = (line == head) and (line .. word) or (line .. " " .. word)
      end
    end
    table.insert(lines, line)
  end
  if #lines == 0 then
    lines = { "No message from gemstack-lsp yet." }
  end
  return lines
end

--- :GemstackMessages: the recent messages in a floating window (q or <Esc> closes it).
function M.open()
  local wrap = math.max(math.min(vim.o.columns - 8, 100), 30)
  local lines = M.lines(wrap)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(buf, "modifiable", false)
  vim.api.nvim_buf_set_option(buf, "bufhidden", "wipe")
  local w = 0
  for _, l in ipairs(lines) do
    w = math.max(w, width(l))
  end
  local height = math.min(#lines, math.max(vim.o.lines - 6, 3))
  local win = vim.api.nvim_open_win(buf, true, {
    relative = "editor",
    width = math.min(w + 1, vim.o.columns - 4),
    height = height,
    row = math.max(math.floor((vim.o.lines - height) / 2) - 1, 0),
    col = math.max(math.floor((vim.o.columns - w) / 2), 0),
    style = "minimal",
    border = "rounded",
  })
  vim.api.nvim_win_set_cursor(win, { #lines, 0 })
  for _, key in ipairs({ "q", "<Esc>" }) do
    vim.keymap.set("n", key, "<cmd>close<cr>", { buffer = buf, nowait = true })
  end
  return win
end

return M
