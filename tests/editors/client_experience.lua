-- Headless Neovim harness for the plugin's client experience (Neovim 0.7 and 0.12): JSON
-- highlighting of ```gemstack-* blocks (regex syntax, and tree-sitter when a json parser is
-- given), quiet in a spec-kit repository, :checkhealth gemstack, and Regenerate's message on
-- one line. Writes its observations as JSON to GEMSTACK_RESULT.
--
-- Env: GEMSTACK_PLUGIN, GEMSTACK_LSP, GEMSTACK_REPO (a Gemstack demo copy), GEMSTACK_FEATURE,
-- GEMSTACK_SPECKIT (a spec-kit repository), GEMSTACK_RESULT, GEMSTACK_TIMEOUT_MS, and
-- optionally GEMSTACK_TS_RUNTIME (a folder with parser/json.so and queries/json/).

local common = dofile(debug.getinfo(1, "S").source:sub(2):match("^(.*)/[^/]*$") .. "/harness_common.lua")
local H = common.new()
local SERVER, REPO, TIMEOUT = H.SERVER, H.REPO, H.TIMEOUT
local FEATURE = H.env("GEMSTACK_FEATURE")
local SPECKIT = H.env("GEMSTACK_SPECKIT")
local TS_RUNTIME = H.env("GEMSTACK_TS_RUNTIME", "")

if TS_RUNTIME ~= "" then
  vim.opt.runtimepath:append(TS_RUNTIME)
end
vim.o.columns = 80
vim.cmd("filetype plugin on")

local ms, R, wait = H.ms, H.R, H.wait
-- Each message with the room the command line had for it (Regenerate's must fit on one line).
vim.notify = function(msg, level)
  H.note(msg, level).echospace = vim.v.echospace
end

local gemstack = require("gemstack")
gemstack.setup({ cmd = { SERVER, "serve" } })

local function attached(bufnr)
  for _, c in ipairs(gemstack.clients(bufnr)) do
    if c.attached_buffers and c.attached_buffers[bufnr] then
      return c
    end
  end
  return nil
end

--- 1-based line of the first line matching `pattern` after the line matching `after`.
local function find_line(lines, after, pattern)
  local seen = after == nil
  for i, line in ipairs(lines) do
    if seen and line:match(pattern) then
      return i
    end
    if not seen and line:match(after) then
      seen = true
    end
  end
  return nil
end

local function syntax_names(row, col)
  local names = {}
  for _, id in ipairs(vim.fn.synstack(row, col)) do
    table.insert(names, vim.fn.synIDattr(id, "name"))
  end
  return names
end

local function ts_captures(row, col)
  local out = {}
  for _, c in ipairs(vim.treesitter.get_captures_at_pos(0, row - 1, col - 1)) do
    table.insert(out, c.lang .. ":" .. c.capture)
  end
  return out
end

--- Where to look: a key inside the first gemstack-contracts block, and a line inside a ```text block.
local function positions()
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  local key_row = find_line(lines, "^```gemstack%-contracts", '^%s*"id"')
  local text_row = find_line(lines, "^```text", "%S")
  local key_col = key_row and (lines[key_row]:find('"', 1, true) + 1)
  return {
    key = key_row and { row = key_row, col = key_col, line = lines[key_row] },
    text = text_row and { row = text_row, col = (lines[text_row]:find("%S")), line = lines[text_row] },
  }
end

local function highlighting()
  local pos = positions()
  R.positions = pos
  R.syntax = {
    current_syntax = vim.b.current_syntax,
    key = syntax_names(pos.key.row, pos.key.col),
    text = syntax_names(pos.text.row, pos.text.col),
  }
  if vim.treesitter.get_captures_at_pos and TS_RUNTIME ~= "" then
    vim.treesitter.start(0, "markdown")
    vim.treesitter.get_parser(0, "markdown"):parse(true)
    R.treesitter = { key = ts_captures(pos.key.row, pos.key.col), text = ts_captures(pos.text.row, pos.text.col) }
    vim.treesitter.stop(0)
  end
end

--- The hover on the first contract id: its kind and text (plain text where Neovim does not
--- render Markdown), and the completion documentation formats the client declared.
local function hover_kind(bufnr)
  local pos = R.positions.key
  local line = pos.line
  local id_col = line:find('"', line:find(":", 1, true), true) -- the value's opening quote
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = pos.row - 1, character = id_col + 1 },
  }
  local answers = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", params, TIMEOUT) or {}
  for _, answer in pairs(answers) do
    local contents = answer.result and answer.result.contents
    if type(contents) == "table" and contents.kind then
      R.hover = { kind = contents.kind, value = contents.value }
    end
  end
  local client = attached(bufnr)
  local td = client and client.config.capabilities and client.config.capabilities.textDocument or {}
  R.declared = {
    hover = td.hover and td.hover.contentFormat or vim.NIL,
    completion_docs = td.completion and td.completion.completionItem
        and td.completion.completionItem.documentationFormat
      or vim.NIL,
  }
end

local function checkhealth()
  local before = vim.api.nvim_get_current_buf()
  vim.cmd("checkhealth gemstack")
  R.health = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  if vim.api.nvim_get_current_buf() ~= before then
    pcall(vim.cmd, "bwipeout!")
  end
  pcall(vim.cmd, "buffer " .. before)
end

local function regenerate(bufnr)
  local done = false
  vim.api.nvim_create_autocmd("User", {
    pattern = "GemstackCommandDone",
    once = true,
    callback = function()
      done = true
    end,
  })
  local before = #R.messages
  vim.cmd("GemstackRegenerateCapsule")
  wait("regenerate", function()
    return done
  end)
  wait("regenerate_message", function()
    for i = before + 1, #R.messages do
      if R.messages[i].message:find("Context capsule", 1, true) then
        return true
      end
    end
    return false
  end, 5000)
  R.regenerate_messages = vim.list_slice(R.messages, before + 1)
  R.history = require("gemstack.messages").history
  R.messages_lines = require("gemstack.messages").lines(76)
  R.regenerate_result = gemstack.last_result and gemstack.last_result.result
  R.statusline = gemstack.statusline()
  R.bufnr_valid = vim.api.nvim_buf_is_valid(bufnr)
end

--- The screen text of the window's row showing buffer line `lnum` (0-based), after a redraw.
local function screen_row(lnum)
  vim.cmd("redraw")
  local pos = vim.fn.screenpos(0, lnum + 1, 1)
  if pos.row == 0 then
    return ""
  end
  local chars = {}
  for col = 1, vim.o.columns do
    table.insert(chars, vim.fn.screenstring(pos.row, col))
  end
  return table.concat(chars)
end

--- The capsule lens and the diagnostics on its line: which comes first on screen, and how
--- long the lens takes to say what the statusline says after a regenerate.
local function lens_after_regenerate(bufnr)
  local t_status, t_lens
  wait("statusline_valid", function()
    if not t_status and gemstack.statusline():find("VALID", 1, true) then
      t_status = ms()
    end
    return t_status ~= nil
  end)
  wait("lens_valid", function()
    local title = gemstack.capsule_lens(bufnr) or ""
    if title:find("Capsule: VALID", 1, true) then
      t_lens = ms()
      return true
    end
    return false
  end)
  R.lens = { after_status_ms = (t_lens and t_status) and (t_lens - t_status) or vim.NIL }
  -- Make the lens's line carry a diagnostic (an unsaved edit makes the capsule stale again,
  -- reported on the spec) and read the screen.
  local lenses = vim.lsp.codelens.get(bufnr)
  local lens_row
  for _, l in ipairs(lenses) do
    if l.command and (l.command.title or ""):find("^Capsule: ") then
      lens_row = l.range.start.line
    end
  end
  R.lens.row = lens_row or vim.NIL
  if lens_row then
    vim.api.nvim_buf_set_lines(bufnr, lens_row + 1, lens_row + 1, false, { "", "An unsaved line." })
    wait("lens_stale_again", function()
      return (gemstack.capsule_lens(bufnr) or ""):find("Capsule: STALE", 1, true) ~= nil
        and #vim.diagnostic.get(bufnr, { lnum = lens_row }) > 0
    end)
    vim.o.columns = 400
    local text = ""
    wait("lens_on_screen", function()
      text = screen_row(lens_row)
      return text:find("Capsule: STALE", 1, true) ~= nil and text:find("■", 1, true) ~= nil
    end)
    local diags = vim.diagnostic.get(bufnr, { lnum = lens_row })
    R.lens.screen = text
    R.lens.diagnostic = diags[1] and diags[1].message or vim.NIL
    R.lens.lens_col = text:find("Capsule: ", 1, true) or vim.NIL
    -- Virtual text starts with its prefix (a square) before the first message.
    R.lens.diag_col = text:find("■", 1, true) or vim.NIL
    vim.o.columns = 80
    vim.cmd("silent! undo")
  end
end

local function speckit()
  vim.cmd("edit " .. vim.fn.fnameescape(SPECKIT .. "/specs/001-photo-albums/spec.md"))
  local bufnr = vim.api.nvim_get_current_buf()
  -- Long enough for a client to start and attach, were one started.
  vim.wait(1500, function()
    return attached(bufnr) ~= nil
  end, 20)
  R.speckit = {
    filetype = vim.bo.filetype,
    attached = attached(bufnr) ~= nil,
    root_of = gemstack.root_of(bufnr) or vim.NIL,
    statusline = gemstack.statusline(),
  }
  -- The spec gets its first Gemstack block and is written: now it is a Gemstack repository.
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { "", "```gemstack-contracts", "[]", "```" })
  vim.cmd("write")
  -- A second Markdown buffer gets the JSON region too (its syntax was loaded after the first's).
  R.speckit.block_syntax = syntax_names(vim.api.nvim_buf_line_count(bufnr) - 1, 1)
  wait("speckit_attached_after_first_block", function()
    return attached(bufnr) ~= nil
  end)
  R.speckit.attached_after_block = attached(bufnr) ~= nil
end

local function main()
  vim.cmd("edit " .. vim.fn.fnameescape(REPO .. "/" .. FEATURE .. "/spec.md"))
  local bufnr = vim.api.nvim_get_current_buf()
  highlighting()
  wait("attached", function()
    return attached(bufnr) ~= nil and #vim.diagnostic.get(bufnr) > 0
  end)
  wait("capsule_state", function()
    return gemstack.statusline() ~= ""
  end)
  hover_kind(bufnr)
  checkhealth()
  regenerate(bufnr)
  lens_after_regenerate(bufnr)
  speckit()
  R.missing_reported = false
  for _, m in ipairs(R.messages) do
    if m.message:find("was not found", 1, true) then
      R.missing_reported = true
    end
  end
end

H.run(main)
