-- Headless Neovim as a new user: the documented config, no gemstack-lsp anywhere.
--
--   GEMSTACK_PLUGIN=editors/nvim GEMSTACK_REPO=/tmp/demo GEMSTACK_FEATURE=specs/009-context-capsule \
--   GEMSTACK_RESULT=/tmp/out.json nvim --headless --clean -u tests/editors/fresh_user.lua
--
-- 1. Opening a spec says the server is missing and how to install it.
-- 2. :GemstackInstall installs it (from the plugin's clone) and the client starts: the stale
--    capsule shows, with its message as virtual text, code lenses and "Capsule STALE" in the
--    statusline.
-- 3. `gemstack-lsp context generate` run as another process (as from a terminal; no edit, no
--    :w) clears the stale finding through file watching, and the statusline says VALID.
-- Writes what it saw to GEMSTACK_RESULT; exits 1 when a wait timed out, 2 on a harness error.

local common = dofile(debug.getinfo(1, "S").source:sub(2):match("^(.*)/[^/]*$") .. "/harness_common.lua")
-- No GEMSTACK_LSP (there is no server yet); the plugin goes on 'runtimepath' below, as documented.
local H = common.new({ who = "fresh_user.lua", server = false, runtimepath = false })
local PLUGIN, REPO, TIMEOUT = H.PLUGIN, H.REPO, H.TIMEOUT
local FEATURE = H.env("GEMSTACK_FEATURE")
local INSTALL_TIMEOUT = tonumber(H.env("GEMSTACK_INSTALL_TIMEOUT_MS", "300000"))
local STALE = "CONTEXT_CAPSULE_STALE"

vim.cmd("filetype plugin on")

-- The documented configuration (docs/editors.md, "Neovim").
vim.opt.runtimepath:prepend(PLUGIN)
vim.o.laststatus = 2
vim.o.statusline = "%f %{v:lua.require'gemstack'.statusline()}"
require("gemstack").setup({})

local ms, R = H.ms, H.R

local function wait(name, timeout, cond)
  return H.wait(name, cond, timeout)
end

local find = common.diagnostic_with

local function message_with(text)
  for _, m in ipairs(R.messages) do
    if m.message:find(text, 1, true) then
      return m
    end
  end
  return nil
end

local function statusline()
  return vim.api.nvim_eval_statusline(vim.o.statusline, {}).str
end

--- The virtual texts shown in a buffer (every namespace), as plain strings.
local function virtual_texts(bufnr)
  local out = {}
  -- Namespaces are numbered from 1, and Neovim 0.7 draws diagnostics in anonymous ones that
  -- nvim_get_namespaces() does not list: try every number up to a fresh namespace's.
  for ns = 1, vim.api.nvim_create_namespace("") do
    local ok, marks = pcall(vim.api.nvim_buf_get_extmarks, bufnr, ns, 0, -1, { details = true })
    for _, mark in ipairs(ok and marks or {}) do
      local chunks = mark[4] and mark[4].virt_text
      if chunks then
        local parts = {}
        for _, chunk in ipairs(chunks) do
          table.insert(parts, chunk[1])
        end
        table.insert(out, table.concat(parts))
      end
    end
  end
  return out
end

local gemstack = require("gemstack")

local function attached(bufnr)
  for _, c in ipairs(gemstack.clients(bufnr)) do
    if c.attached_buffers and c.attached_buffers[bufnr] and c.initialized ~= false then
      return c
    end
  end
  return nil
end

-- workspace/didChangeWatchedFiles as sent: Neovim's own watcher (0.10+: LspNotify) or the
-- plugin's (0.7/0.8: its counters).
local watched_sent = {}
if vim.fn.exists("##LspNotify") == 1 then
  vim.api.nvim_create_autocmd("LspNotify", {
    callback = function(args)
      if args.data.method == "workspace/didChangeWatchedFiles" then
        table.insert(watched_sent, { ms = ms(), params = args.data.params })
      end
    end,
  })
end

local function main()
  local spec = REPO .. "/" .. FEATURE .. "/spec.md"
  local capsule = REPO .. "/" .. FEATURE .. "/context-capsule.json"

  -- 1. No server yet: the message names :GemstackInstall.
  vim.cmd("edit " .. vim.fn.fnameescape(spec))
  local buf = vim.api.nvim_get_current_buf()
  wait("missing_message", 3000, function()
    return message_with("was not found") ~= nil
  end)
  R.missing = (message_with("was not found") or {}).message

  -- 2. :GemstackInstall, then the client starts on the open buffer.
  local install_started = ms()
  vim.cmd("GemstackInstall")
  R.install_ok = wait("install", INSTALL_TIMEOUT, function()
    return message_with("installed gemstack-lsp") ~= nil or message_with("install failed") ~= nil
  end) and message_with("installed gemstack-lsp") ~= nil
  R.install_ms = ms() - install_started
  R.install_log_tail = vim.list_slice(require("gemstack.install").log, math.max(1, #require("gemstack.install").log - 5))
  if not R.install_ok then
    return
  end
  if not wait("attach", TIMEOUT, function()
    return attached(buf) ~= nil
  end) then
    return
  end
  local client = attached(buf)
  R.server_cmd = client.config and client.config.cmd
  if type(R.server_cmd) ~= "table" then
    R.server_cmd = gemstack.server_cmd(client.config.root_dir)
  end
  local workspace_caps = (client.config.capabilities or {}).workspace or {}
  R.watch_capability = (workspace_caps.didChangeWatchedFiles or {}).dynamicRegistration == true
  R.stale_before = wait("stale_diagnostic", TIMEOUT, function()
    return find(STALE) ~= nil
  end)
  if not R.stale_before then
    return
  end
  local stale = find(STALE)
  R.stale_message = stale.message
  R.stale_path = vim.api.nvim_buf_get_name(stale.bufnr):sub(#REPO + 2)

  -- The message is shown as virtual text (the documented config; 0.11+ shows none by default).
  local ns_config = vim.diagnostic.config(nil, stale.namespace) or {}
  R.virtual_text_config = ns_config.virtual_text and true or false
  vim.cmd("edit " .. vim.fn.fnameescape(capsule))
  local capsule_buf = vim.api.nvim_get_current_buf()
  wait("virtual_text", TIMEOUT, function()
    for _, text in ipairs(virtual_texts(stale.bufnr)) do
      if text:find(stale.message:sub(1, 30), 1, true) then
        return true
      end
    end
    return false
  end)
  R.virtual_texts = virtual_texts(stale.bufnr)

  -- Code lenses are fetched (spec.md carries the capsule lens).
  vim.cmd("buffer " .. buf)
  wait("codelens", TIMEOUT, function()
    return #vim.lsp.codelens.get(buf) > 0
  end)
  R.codelens = {}
  for _, lens in ipairs(vim.lsp.codelens.get(buf)) do
    table.insert(R.codelens, lens.command and lens.command.title or "")
  end

  -- The statusline says STALE.
  wait("statusline_stale", TIMEOUT, function()
    return statusline():find("Capsule STALE", 1, true) ~= nil
  end)
  R.statusline_stale = statusline()

  -- 3. Regenerate from "a terminal": another process, while Neovim waits; no edit, no :w.
  R.modified_before = vim.api.nvim_buf_get_option(buf, "modified")
  local server = R.server_cmd[1]
  local exited_at, exit_code = nil, nil
  local sent_before = #watched_sent
  local plugin_sent_before = require("gemstack.watch").stats.notifications
  local job = vim.fn.jobstart({ server, "context", "generate", FEATURE, "--target", REPO }, {
    cwd = REPO,
    on_exit = function(_, code)
      exited_at, exit_code = ms(), code
    end,
  })
  R.regenerate_job = job
  wait("terminal_regenerate", TIMEOUT, function()
    return exited_at ~= nil
  end)
  R.regenerate_exit = exit_code
  local cleared = wait("cleared_after_terminal_regenerate", TIMEOUT, function()
    return find(STALE) == nil
  end)
  if cleared and exited_at then
    R.cleared_after_exit_ms = ms() - exited_at
  end
  -- What the server itself says now (for the report when the wait above timed out).
  local answers = vim.lsp.buf_request_sync(buf, "gemstack/capsuleState", { textDocument = { uri = vim.uri_from_bufnr(buf) } }, TIMEOUT)
  for _, answer in pairs(answers or {}) do
    R.capsule_state_after = answer.result and answer.result.state or vim.inspect(answer)
  end
  R.watch_notifications = {}
  for i = sent_before + 1, #watched_sent do
    table.insert(R.watch_notifications, watched_sent[i])
  end
  R.plugin_watch_notifications = require("gemstack.watch").stats.notifications - plugin_sent_before
  R.plugin_watch_last = require("gemstack.watch").stats.last
  R.watched_folders = #require("gemstack.watch").watched(client.id)
  wait("statusline_valid", TIMEOUT, function()
    return statusline():find("Capsule VALID", 1, true) ~= nil
  end)
  R.statusline_valid = statusline()
  R.modified_after = vim.api.nvim_buf_get_option(buf, "modified")
  -- The open context-capsule.json was read again (the server analyses the buffer's text).
  local f = io.open(capsule, "rb")
  local disk = f and f:read("*a") or ""
  if f then
    f:close()
  end
  local lines = vim.api.nvim_buf_get_lines(capsule_buf, 0, -1, false)
  R.capsule_buffer_reloaded = table.concat(lines, "\n") .. "\n" == disk
  R.capsule_buf_modified = vim.api.nvim_buf_get_option(capsule_buf, "modified")
end

H.run(main)
