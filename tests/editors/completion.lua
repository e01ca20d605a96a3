-- Headless Neovim: LSP completion typed as a user would (insert mode, <C-x><C-o>, <C-y>).
--
--   GEMSTACK_PLUGIN=editors/nvim GEMSTACK_LSP=/abs/gemstack-lsp GEMSTACK_FILE=/tmp/demo/specs/x/spec.md \
--   GEMSTACK_CASES='[{"line": "  {\"type\": \"", "col": 14}]' GEMSTACK_RESULT=/tmp/out.json \
--     nvim --headless --clean -u tests/editors/completion.lua
--
-- For each case, the line is appended inside a new gemstack-contracts block at the end of the
-- file, the cursor put after byte `col`, and the keys typed: `a<C-x><C-o>`, then `<C-y><Esc>`
-- once the menu shows. The line as Neovim left it is written to GEMSTACK_RESULT. The keys must
-- reach Neovim's main loop, so the cases run from timers, not from one blocking function.

local PLUGIN = assert(os.getenv("GEMSTACK_PLUGIN"))
local SERVER = assert(os.getenv("GEMSTACK_LSP"))
local FILE = assert(os.getenv("GEMSTACK_FILE"))
local RESULT = assert(os.getenv("GEMSTACK_RESULT"))
local CASES = vim.json.decode(assert(os.getenv("GEMSTACK_CASES")))
local TIMEOUT = tonumber(os.getenv("GEMSTACK_TIMEOUT_MS") or "20000")

vim.opt.runtimepath:prepend(PLUGIN)
vim.opt.swapfile = false
vim.opt.shadafile = "NONE"
vim.cmd("filetype plugin on")
-- The first item selected, not inserted: <C-y> inserts it.
vim.o.completeopt = "menuone,noinsert"

local R = { cases = {}, messages = {} }
vim.notify = function(msg)
  table.insert(R.messages, tostring(msg))
end

local function finish(code)
  local f = assert(io.open(RESULT, "w"))
  f:write(vim.json.encode(R))
  f:close()
  vim.cmd(code == 0 and "qall!" or ("cquit " .. code))
end

--- Calls `cond` every 20 ms until it is true (then `next`) or TIMEOUT passed (then fails).
local function poll(name, cond, next)
  local started = vim.loop.now()
  local function tick()
    local ok, done = pcall(cond)
    if ok and done then
      return next()
    end
    if vim.loop.now() - started > TIMEOUT then
      R.error = "timed out waiting for " .. name
      return finish(1)
    end
    vim.defer_fn(tick, 20)
  end
  tick()
end

local function run_case(i, buf, line_nr)
  local case = CASES[i]
  if case == nil then
    return finish(0)
  end
  vim.api.nvim_buf_set_lines(buf, line_nr - 1, line_nr, false, { case.line })
  -- On the byte before the insertion point, then `a` appends after it.
  vim.api.nvim_win_set_cursor(0, { line_nr, case.col - 1 })
  vim.api.nvim_input("a<C-x><C-o>")
  poll("the completion menu (case " .. i .. ")", function()
    return vim.fn.pumvisible() == 1
  end, function()
    local info = vim.fn.complete_info({ "items", "selected" })
    local words = {}
    for _, item in ipairs(info.items or {}) do
      table.insert(words, item.word)
    end
    vim.api.nvim_input("<C-y><Esc>")
    poll("normal mode (case " .. i .. ")", function()
      return vim.api.nvim_get_mode().mode == "n"
    end, function()
      local text = vim.api.nvim_buf_get_lines(buf, line_nr - 1, line_nr, false)[1]
      table.insert(R.cases, { line = case.line, words = words, result = text })
      run_case(i + 1, buf, line_nr)
    end)
  end)
end

vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    vim.schedule(function()
      local gemstack = require("gemstack")
      gemstack.setup({ cmd = { SERVER, "serve" } })
      vim.cmd("edit " .. vim.fn.fnameescape(FILE))
      local buf = vim.api.nvim_get_current_buf()
      R.nvim = tostring(vim.version().major .. "." .. vim.version().minor)
      poll("the client", function()
        local c = gemstack.clients(buf)[1]
        return c ~= nil and c.attached_buffers[buf] and c.initialized ~= false
      end, function()
        R.omnifunc = vim.api.nvim_buf_get_option(buf, "omnifunc")
        local k = vim.fn.maparg("K", "n", false, true)
        R.k_buffer_local = k.buffer == 1
        R.k_desc = k.desc or ""
        local last = vim.api.nvim_buf_line_count(buf)
        vim.api.nvim_buf_set_lines(buf, last, last, false, { "", "```gemstack-contracts", "[", "", "]", "```" })
        run_case(1, buf, last + 4)
      end)
    end)
  end,
})
