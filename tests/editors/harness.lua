-- Headless Neovim harness for the gemstack plugin (Neovim 0.7 to 0.12).
--
--   GEMSTACK_PLUGIN=editors/nvim GEMSTACK_LSP=/abs/.venv/bin/gemstack-lsp GEMSTACK_REPO=/tmp/demo \
--   GEMSTACK_FEATURE=specs/009-context-capsule GEMSTACK_RESULT=/tmp/out.json \
--     nvim --headless --clean -u tests/editors/harness.lua
--
-- Drives the real LSP client through the scenario below and writes what it saw as JSON to
-- GEMSTACK_RESULT. Exits 0 when every step finished, 1 when a wait timed out (the results
-- so far are still written), 2 when the harness itself failed.

local common = dofile(debug.getinfo(1, "S").source:sub(2):match("^(.*)/[^/]*$") .. "/harness_common.lua")
local H = common.new()
local SERVER, REPO, TIMEOUT = H.SERVER, H.REPO, H.TIMEOUT
local FEATURE = H.env("GEMSTACK_FEATURE")
local STALE = "CONTEXT_CAPSULE_STALE"
vim.cmd("filetype on")

local ms, R, wait, read_file = H.ms, H.R, H.wait, common.read_file

local function rel(path)
  if path:sub(1, #REPO + 1) == REPO .. "/" then
    return path:sub(#REPO + 2)
  end
  return path
end

local code_of, has_code = common.code_of, common.diagnostic_with

local function diagnostics()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(nil)) do
    table.insert(out, {
      path = rel(vim.api.nvim_buf_get_name(d.bufnr)),
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      code = code_of(d),
      source = d.source,
      message = d.message,
    })
  end
  table.sort(out, function(a, b)
    if a.path ~= b.path then
      return a.path < b.path
    end
    if a.lnum ~= b.lnum then
      return a.lnum < b.lnum
    end
    return tostring(a.code) < tostring(b.code)
  end)
  return out
end

--- Waits until the diagnostics stop changing for `quiet` ms (the server may publish in waves).
local function settle(name, quiet)
  local last, since = nil, ms()
  return wait(name, function()
    local now = vim.json.encode(diagnostics())
    if now ~= last then
      last, since = now, ms()
    end
    return ms() - since >= quiet
  end)
end

local gemstack = require("gemstack")

local function client_for(bufnr)
  return gemstack.clients(bufnr)[1]
end

local attached = common.attached

-- Code actions: Neovim's own vim.lsp.buf.code_action path, with vim.ui.select answered here.
local wanted_action = nil
local offered = nil
vim.ui.select = function(items, opts, on_choice)
  offered = {}
  local pick, pick_idx = nil, nil
  for i, item in ipairs(items) do
    local title = opts.format_item and opts.format_item(item) or tostring(item)
    table.insert(offered, title)
    if pick == nil and wanted_action and title:find(wanted_action, 1, true) then
      pick, pick_idx = item, i
    end
  end
  on_choice(pick, pick_idx)
end

local function utf16_col(line, byte_col)
  local units, i = 0, 1
  while i <= byte_col and i <= #line do
    local c = line:byte(i)
    local len = c < 0x80 and 1 or c < 0xE0 and 2 or c < 0xF0 and 3 or 4
    units = units + (len == 4 and 2 or 1)
    i = i + len
  end
  return units
end

local function main()
  local workspace_diagnostics = os.getenv("GEMSTACK_WORKSPACE_DIAGNOSTICS")
  gemstack.setup({
    cmd = { SERVER, "serve" },
    no_copen = true,
    workspace_diagnostics = workspace_diagnostics ~= "" and workspace_diagnostics or nil,
  })

  -- 1. Open spec.md: the client starts and diagnostics arrive.
  local spec = REPO .. "/" .. FEATURE .. "/spec.md"
  vim.cmd("edit " .. vim.fn.fnameescape(spec))
  local spec_buf = vim.api.nvim_get_current_buf()
  R.filetype = vim.bo.filetype
  if not wait("attach", function()
    return attached(spec_buf)
  end) then
    return
  end
  local client = client_for(spec_buf)
  R.offset_encoding = client.offset_encoding
  R.server_commands = (client.server_capabilities or client.resolved_capabilities or {}).executeCommandProvider
  if not wait("first_diagnostics", function()
    return #vim.diagnostic.get(nil) > 0
  end) then
    return
  end
  -- Every (path, code) that `gemstack-lsp check` reported, when the driver passed them.
  local expected = vim.json.decode(os.getenv("GEMSTACK_EXPECTED") or "[]")
  wait("all_expected", function()
    local have = {}
    for _, d in ipairs(diagnostics()) do
      have[d.path .. "|" .. tostring(d.code)] = true
    end
    for _, key in ipairs(expected) do
      if not have[key] then
        return false
      end
    end
    return true
  end)
  settle("initial_settled", 600)
  R.initial = diagnostics()

  -- 2. :GemstackCheck fills the quickfix list from `gemstack-lsp check --format json`.
  local check_done = false
  vim.api.nvim_create_autocmd("User", {
    pattern = "GemstackCheckDone",
    callback = function()
      check_done = true
    end,
  })
  vim.cmd("GemstackCheck")
  if wait("check", function()
    return check_done
  end) then
    R.quickfix = {}
    for _, item in ipairs(vim.fn.getqflist()) do
      table.insert(R.quickfix, {
        path = rel(vim.api.nvim_buf_get_name(item.bufnr)),
        lnum = item.lnum,
        col = item.col,
        type = item.type,
        text = item.text,
      })
    end
  end

  -- 3. Hover on the first contract id of spec.md.
  local lines = vim.api.nvim_buf_get_lines(spec_buf, 0, -1, false)
  local in_contracts = false
  for i, line in ipairs(lines) do
    if line:match("^%s*```+%s*gemstack%-contracts") then
      in_contracts = true
    elseif in_contracts and line:match("^%s*```") then
      in_contracts = false
    elseif in_contracts and R.hover == nil then
      local s, _, id = line:find('"id"%s*:%s*"([^"]+)"')
      if s then
        local value_col = line:find('"' .. id:gsub("%p", "%%%0") .. '"', s + 4) -- 1-based, the quote
        local ctype
        for j = i + 1, math.min(i + 8, #lines) do
          ctype = lines[j]:match('"type"%s*:%s*"([^"]+)"')
          if ctype then
            break
          end
        end
        R.hover = { id = id, type = ctype, line = i - 1, col = value_col + 1 }
      end
    end
  end
  if R.hover then
    vim.api.nvim_win_set_cursor(0, { R.hover.line + 1, R.hover.col })
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(spec_buf) },
      position = { line = R.hover.line, character = utf16_col(lines[R.hover.line + 1], R.hover.col) },
    }
    local started = ms()
    local responses = vim.lsp.buf_request_sync(spec_buf, "textDocument/hover", params, TIMEOUT)
    R.steps.hover = { ok = responses ~= nil, ms = ms() - started, at = ms() }
    local texts = {}
    for _, resp in pairs(responses or {}) do
      local contents = resp.result and resp.result.contents
      if type(contents) == "table" then
        if contents.value then
          table.insert(texts, contents.value)
        else
          for _, c in ipairs(contents) do
            table.insert(texts, type(c) == "table" and c.value or tostring(c))
          end
        end
      elseif type(contents) == "string" then
        table.insert(texts, contents)
      end
      if resp.err then
        R.hover.error = resp.err.message
      end
    end
    R.hover.text = table.concat(texts, "\n")
  end

  -- 4. The regenerate code action on the stale diagnostic: the diagnostic goes away.
  -- (A demo without a capsule reports CONTEXT_CAPSULE_MISSING instead: regenerate fixes it too.)
  local stale = has_code(STALE) or has_code("CONTEXT_CAPSULE_MISSING")
  R.stale_initial = has_code(STALE) ~= nil
  if stale then
    local capsule_code = code_of(stale)
    R.capsule_code = capsule_code
    local stale_file = vim.api.nvim_buf_get_name(stale.bufnr)
    R.stale_path = rel(stale_file)
    R.capsule_before = read_file(REPO .. "/" .. FEATURE .. "/context-capsule.json")
    if stale.bufnr ~= vim.api.nvim_get_current_buf() then
      vim.cmd("edit " .. vim.fn.fnameescape(stale_file))
    end
    local buf = vim.api.nvim_get_current_buf()
    if wait("attach_stale_file", function()
      return attached(buf)
    end) then
      vim.api.nvim_win_set_cursor(0, { stale.lnum + 1, stale.col })
      wanted_action = "Regenerate the context capsule"
      local started = ms()
      offered = nil
      vim.lsp.buf.code_action()
      wait("code_actions_offered", function()
        return offered ~= nil
      end)
      wait("regenerate_action", function()
        return has_code(capsule_code) == nil
      end)
      R.code_actions = offered
      R.steps.regenerate_action.since_request = ms() - started
      settle("after_regenerate_settled", 300)
      R.after_regenerate = diagnostics()
      local after = read_file(REPO .. "/" .. FEATURE .. "/context-capsule.json")
      R.capsule_rewritten = after ~= nil and after ~= R.capsule_before
      R.capsule_before = nil
    end
  end

  -- 5. Edit spec.md in the buffer without saving: the capsule turns stale again.
  vim.cmd("buffer " .. spec_buf)
  local disk_before = read_file(spec)
  local last = vim.api.nvim_buf_line_count(spec_buf)
  vim.api.nvim_buf_set_lines(spec_buf, last, last, false, { "", "An unsaved edit made in the editor." })
  wait("stale_after_edit", function()
    return has_code(STALE) ~= nil
  end)
  settle("after_edit_settled", 300)
  R.after_edit = diagnostics()
  R.modified = vim.api.nvim_buf_get_option(spec_buf, "modified")
  R.disk_unchanged = read_file(spec) == disk_before

  -- 6. :GemstackVerify and :GemstackRegenerateCapsule (the plugin's commands, via executeCommand).
  local verified = nil
  gemstack.verify_capsule(nil, spec_buf, function(err, result)
    verified = { err = err and err.message or nil, result = result }
  end)
  if wait("verify_command", function()
    return verified ~= nil
  end) then
    R.verify = verified
  end
  local command_done = false
  vim.api.nvim_create_autocmd("User", {
    pattern = "GemstackCommandDone",
    callback = function()
      command_done = true
    end,
  })
  vim.cmd("GemstackRegenerateCapsule")
  wait("regenerate_command", function()
    return command_done and has_code(STALE) == nil
  end)
  R.regenerate_command_result = gemstack.last_result and gemstack.last_result.result
  -- The server says what was written; the plugin does not say it again.
  R.plugin_echoed = false
  for _, m in ipairs(R.messages) do
    if m.message:find("regenerate context capsule:", 1, true) then
      R.plugin_echoed = true
    end
  end
  settle("after_regenerate_command_settled", 300)
  R.after_regenerate_command = diagnostics()
end

H.run(main)
