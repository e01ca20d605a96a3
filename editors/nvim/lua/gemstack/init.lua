-- gemstack.nvim: starts gemstack-lsp for Gemstack repositories and adds three commands.
--
--   require("gemstack").setup({
--     cmd = { "gemstack-lsp", "serve" },       -- default: gemstack-lsp on PATH, else <root>/.venv/bin/gemstack-lsp
--     settings = { environment = "ci" },       -- the server's settings (section "gemstack")
--     on_attach = function(client, bufnr) end,
--     capabilities = nil,                      -- e.g. require("cmp_nvim_lsp").default_capabilities()
--     autostart = true,
--   })
--
-- Neovim 0.11+ uses vim.lsp.config/vim.lsp.enable with lsp/gemstack.lua; 0.8 to 0.10 use
-- vim.lsp.start; 0.7 uses vim.lsp.start_client and vim.lsp.buf_attach_client.

local M = {}

local uv = vim.uv or vim.loop
local has = function(feature)
  return vim.fn.has(feature) == 1
end

M.name = "gemstack"
M.options = {}

local function notify(msg, level)
  vim.notify("gemstack: " .. msg, level or vim.log.levels.INFO)
end

--- The table in lsp/gemstack.lua (found on the runtimepath).
function M.base_config()
  local files = vim.api.nvim_get_runtime_file("lsp/gemstack.lua", false)
  if #files == 0 then
    error("gemstack: lsp/gemstack.lua is not on the runtimepath; add the plugin's folder to it")
  end
  return dofile(files[1])
end

local function executable(path)
  return path ~= nil and vim.fn.executable(path) == 1
end

--- The server command for a root: opts.cmd, else gemstack-lsp on PATH, else <root>/.venv/bin/gemstack-lsp.
function M.server_cmd(root)
  if M.options.cmd then
    return M.options.cmd
  end
  if executable("gemstack-lsp") then
    return { "gemstack-lsp", "serve" }
  end
  if root then
    local venv = root .. "/.venv/bin/gemstack-lsp"
    if executable(venv) then
      return { venv, "serve" }
    end
  end
  return nil
end

local missing_reported = false
local function report_missing()
  if missing_reported then
    return
  end
  missing_reported = true
  notify(
    "the language server gemstack-lsp was not found (not on PATH, not in the workspace's .venv). "
      .. "Install it with `pip install gemstack-lsp`, or pass cmd to require('gemstack').setup().",
    vim.log.levels.ERROR
  )
end

--- The full client configuration for a root (a copy; safe to modify).
function M.config_for(root)
  local config = M.base_config()
  config.name = M.name
  config.cmd = M.server_cmd(root) or config.cmd
  if M.options.settings then
    config.settings = { gemstack = M.options.settings }
  end
  config.on_attach = M.options.on_attach
  if M.options.capabilities then
    config.capabilities = M.options.capabilities
  end
  return config
end

--- The root folder of a buffer if it is a Gemstack file, else nil (synchronous).
function M.root_of(bufnr)
  local found
  M.base_config().root_dir(bufnr, function(dir)
    found = dir
  end)
  return found
end

-- Neovim 0.7: one client per root, attached buffer by buffer.
local clients_by_root = {}

local function attach_legacy(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  local root = M.root_of(bufnr)
  if not root then
    return
  end
  local config = M.config_for(root)
  if not M.server_cmd(root) then
    report_missing()
    return
  end
  config.root_dir = root
  config.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
  config.filetypes, config.root_markers = nil, nil
  if vim.lsp.start then
    -- 0.8 to 0.10: vim.lsp.start reuses the client with the same name and root.
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  local id = clients_by_root[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(config)
    if id == nil then
      notify("could not start " .. table.concat(config.cmd, " "), vim.log.levels.ERROR)
      return
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

-- Neovim 0.11+ pulls diagnostics for open buffers only, and does not handle
-- workspace/diagnostic/refresh: findings in files that are not open (a stale
-- context-capsule.json, another feature's tasks.md) would never show. So we ask for the
-- workspace's diagnostics when the client attaches and after every document notification.
local pending = {}
-- Per client: the URIs the fallback below published, so that vanished reports are cleared.
local published_by_fallback = {}

--- Neovim 0.11 has no vim.lsp.buf.workspace_diagnostics: ask for workspace/diagnostic here and
--- hand each report of a file that is not attached to the client to the push handler (the
--- attached ones are pulled by Neovim itself).
local function pull_workspace_fallback(client)
  local provider = client.server_capabilities.diagnosticProvider
  local params = { identifier = provider.identifier, previousResultIds = {} }
  M.request(client, "workspace/diagnostic", params, function(err, result)
    if err or type(result) ~= "table" then
      return
    end
    local before = published_by_fallback[client.id] or {}
    local now = {}
    local ctx = { client_id = client.id, method = "textDocument/publishDiagnostics" }
    for _, report in ipairs(result.items or {}) do
      local bufnr = vim.uri_to_bufnr(report.uri)
      if report.kind == "full" and not (client.attached_buffers or {})[bufnr] then
        vim.lsp.diagnostic.on_publish_diagnostics(nil, { uri = report.uri, diagnostics = report.items or {} }, ctx)
        now[report.uri] = true
      elseif report.kind == "unchanged" and before[report.uri] then
        now[report.uri] = true
      end
    end
    for uri in pairs(before) do
      if not now[uri] then
        vim.lsp.diagnostic.on_publish_diagnostics(nil, { uri = uri, diagnostics = {} }, ctx)
      end
    end
    published_by_fallback[client.id] = now
  end)
end

local function pull_workspace(client_id)
  if pending[client_id] then
    return
  end
  pending[client_id] = true
  vim.defer_fn(function()
    pending[client_id] = nil
    local client = vim.lsp.get_client_by_id(client_id)
    if not client or (client.is_stopped and client:is_stopped()) then
      return
    end
    if vim.lsp.buf.workspace_diagnostics and M.options.workspace_diagnostics ~= "plugin" then
      vim.lsp.buf.workspace_diagnostics({ client_id = client_id })
    else
      pull_workspace_fallback(client)
    end
  end, 30)
end

local NOTIFY_METHODS = {
  ["textDocument/didOpen"] = true,
  ["textDocument/didChange"] = true,
  ["textDocument/didSave"] = true,
  ["textDocument/didClose"] = true,
  ["workspace/didChangeWatchedFiles"] = true,
}

local function supports_workspace_pull(client)
  local provider = client and client.server_capabilities and client.server_capabilities.diagnosticProvider
  return type(provider) == "table" and provider.workspaceDiagnostics == true
end

--- Pulls the diagnostics of every buffer attached to the client again, then the workspace's.
function M.repull(client)
  if not (client and supports_workspace_pull(client)) then
    return
  end
  for bufnr in pairs(client.attached_buffers or {}) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
      local provider = client.server_capabilities.diagnosticProvider
      params.identifier = provider.identifier
      M.request(client, "textDocument/diagnostic", params, vim.lsp.diagnostic.on_diagnostic, bufnr)
    end
  end
  pull_workspace(client.id)
end

--- What setup() adds to the client config on Neovim 0.11+ for pulled diagnostics.
function M.pull_config()
  return {
    capabilities = { workspace = { diagnostics = { refreshSupport = true } } },
    handlers = {
      ["workspace/diagnostic/refresh"] = function(_, _, ctx)
        local client = vim.lsp.get_client_by_id(ctx.client_id)
        vim.schedule(function()
          M.repull(client)
        end)
        return vim.NIL
      end,
    },
  }
end

function M.follow_workspace_diagnostics()
  if vim.fn.exists("##LspNotify") ~= 1 then
    return
  end
  local group = vim.api.nvim_create_augroup("gemstack_workspace_diagnostics", { clear = true })
  -- A command (regenerate the capsule, apply a fix) changes files behind the buffers' backs:
  -- pull again once it has answered.
  vim.api.nvim_create_autocmd("LspRequest", {
    group = group,
    callback = function(args)
      local request = args.data and args.data.request
      if not request or request.type ~= "complete" or request.method ~= "workspace/executeCommand" then
        return
      end
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == M.name then
        vim.schedule(function()
          M.repull(client)
        end)
      end
    end,
  })
  vim.api.nvim_create_autocmd("LspAttach", {
    group = group,
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == M.name and supports_workspace_pull(client) then
        -- Neovim pulls this buffer's diagnostics now: drop what the fallback pushed for it.
        local uri = vim.uri_from_bufnr(args.buf)
        if (published_by_fallback[client.id] or {})[uri] then
          vim.diagnostic.reset(vim.lsp.diagnostic.get_namespace(client.id, false), args.buf)
          published_by_fallback[client.id][uri] = nil
        end
        pull_workspace(client.id)
      end
    end,
  })
  vim.api.nvim_create_autocmd("LspNotify", {
    group = group,
    callback = function(args)
      if not NOTIFY_METHODS[args.data.method] then
        return
      end
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == M.name and supports_workspace_pull(client) then
        pull_workspace(client.id)
      end
    end,
  })
end

function M.setup(opts)
  M.options = vim.tbl_extend("force", { autostart = true }, opts or {})
  if vim.lsp.config and vim.lsp.enable then
    -- Neovim 0.11+: merge our options onto lsp/gemstack.lua.
    local overrides = {}
    if M.options.cmd then
      overrides.cmd = M.options.cmd
    else
      overrides.cmd = function(dispatchers, config)
        local root = config and config.root_dir
        local cmd = M.server_cmd(root)
        if not cmd then
          report_missing()
          cmd = { "gemstack-lsp", "serve" }
        end
        return vim.lsp.rpc.start(cmd, dispatchers, { cwd = root })
      end
    end
    if M.options.settings then
      overrides.settings = { gemstack = M.options.settings }
    end
    if M.options.on_attach then
      overrides.on_attach = M.options.on_attach
    end
    if M.options.capabilities then
      overrides.capabilities = M.options.capabilities
    end
    if M.options.workspace_diagnostics ~= false then
      overrides = vim.tbl_deep_extend("force", M.pull_config(), overrides)
      M.follow_workspace_diagnostics()
    end
    vim.lsp.config(M.name, overrides)
    if M.options.autostart then
      vim.lsp.enable(M.name)
    end
    return
  end
  if not M.options.autostart then
    return
  end
  local group = vim.api.nvim_create_augroup("gemstack_lsp", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = { "markdown", "json" },
    callback = function(args)
      attach_legacy(args.buf)
    end,
  })
  -- Buffers opened before setup().
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    local ft = vim.api.nvim_buf_get_option(bufnr, "filetype")
    if vim.api.nvim_buf_is_loaded(bufnr) and (ft == "markdown" or ft == "json") then
      attach_legacy(bufnr)
    end
  end
end

--- Gemstack clients attached to a buffer (or any, when none is attached to it).
function M.clients(bufnr)
  local all
  if vim.lsp.get_clients then
    all = vim.lsp.get_clients({ name = M.name })
  else
    all = vim.tbl_filter(function(c)
      return c.name == M.name
    end, vim.lsp.get_active_clients())
  end
  if bufnr then
    local attached = vim.tbl_filter(function(c)
      return c.attached_buffers and c.attached_buffers[bufnr]
    end, all)
    if #attached > 0 then
      return attached
    end
  end
  return all
end

--- client.request for every Neovim (0.11 made it a method).
function M.request(client, method, params, handler, bufnr)
  if has("nvim-0.11") then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- The feature folder (specs/<feature>) of a file, or nil.
function M.feature_of(file)
  return file:match("^(.*/specs/[^/]+)/[^/]+$")
end

--- Runs a server command (workspace/executeCommand); callback(err, result).
function M.execute(command, arguments, bufnr, callback)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.clients(bufnr)[1]
  if not client then
    local msg = "no gemstack-lsp client is running for this buffer (open a file under specs/)"
    notify(msg, vim.log.levels.WARN)
    if callback then
      callback({ message = msg }, nil)
    end
    return
  end
  M.request(client, "workspace/executeCommand", { command = command, arguments = arguments }, function(err, result)
    if callback then
      callback(err, result)
    end
  end, bufnr)
end

local function describe(result)
  if result == nil or result == vim.NIL then
    return "done"
  end
  if type(result) == "string" then
    return result
  end
  if type(result) == "table" then
    for _, key in ipairs({ "message", "summary", "state" }) do
      if type(result[key]) == "string" then
        return result[key]
      end
    end
  end
  return vim.inspect(result)
end

local function feature_command(server_command, title)
  return function(feature, bufnr, callback)
    bufnr = bufnr or vim.api.nvim_get_current_buf()
    if feature == nil or feature == "" then
      feature = M.feature_of(vim.api.nvim_buf_get_name(bufnr))
    elseif not feature:match("^/") then
      feature = vim.fn.fnamemodify(feature, ":p"):gsub("/$", "")
    end
    if not feature then
      notify(title .. ": open a file under specs/<feature>/ or pass the feature folder", vim.log.levels.WARN)
      return
    end
    -- The server takes the feature folder's URI, as in its own code actions.
    local target = feature:match("^file:") and feature or vim.uri_from_fname(feature)
    M.execute(server_command, { target }, bufnr, function(err, result)
      if err then
        notify(title .. " failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      else
        notify(title .. ": " .. describe(result))
      end
      if callback then
        callback(err, result)
      end
    end)
  end
end

M.regenerate_capsule = feature_command("gemstack.regenerateCapsule", "regenerate context capsule")
M.verify_capsule = feature_command("gemstack.verifyCapsule", "verify context capsule")

local QF_TYPE = { error = "E", warning = "W", information = "I", hint = "N" }

--- Byte column (0-based) of a UTF-16 column in a line of UTF-8 text.
function M.utf16_to_byte(line, col16)
  local byte, units = 1, 0
  while byte <= #line and units < col16 do
    local c = line:byte(byte)
    local len = c < 0x80 and 1 or c < 0xE0 and 2 or c < 0xF0 and 3 or 4
    units = units + (len == 4 and 2 or 1)
    byte = byte + len
  end
  return byte - 1
end

local function line_of(file, lnum, cache)
  if cache[file] == nil then
    local ok, lines = pcall(vim.fn.readfile, file)
    cache[file] = ok and lines or {}
  end
  return cache[file][lnum] or ""
end

--- Quickfix items from `gemstack-lsp check --format json` output.
function M.quickfix_items(payload)
  local items, cache = {}, {}
  for _, f in ipairs(payload.findings or {}) do
    local file = f.repository .. "/" .. f.path
    local start = f.range and f.range.start or { line = 0, character = 0 }
    local line = line_of(file, start.line + 1, cache)
    table.insert(items, {
      filename = file,
      lnum = start.line + 1,
      col = M.utf16_to_byte(line, start.character) + 1,
      type = QF_TYPE[f.severity] or "E",
      text = f.code .. ": " .. f.message,
      nr = 0,
    })
  end
  return items
end

--- Runs `gemstack-lsp check --format json` on the root and fills the quickfix list.
--- callback(items, err) is called when done; the User autocmd GemstackCheckDone fires too.
function M.check(path, callback)
  local bufnr = vim.api.nvim_get_current_buf()
  path = (path and path ~= "") and vim.fn.fnamemodify(path, ":p") or M.root_of(bufnr) or vim.fn.getcwd()
  local cmd = M.server_cmd(M.root_of(bufnr) or vim.fn.getcwd())
  if not cmd then
    report_missing()
    return
  end
  local argv = { cmd[1], "check", "--format", "json", path }
  local stdout, stderr = {}, {}
  local function done(items, err)
    if err then
      notify("check failed: " .. err, vim.log.levels.ERROR)
    else
      vim.fn.setqflist({}, " ", { title = "gemstack-lsp check", items = items })
      notify(string.format("check: %d finding(s) in the quickfix list", #items))
      if #items > 0 and not M.options.no_copen then
        vim.cmd("copen")
      end
    end
    if callback then
      callback(items, err)
    end
    vim.cmd("doautocmd <nomodeline> User GemstackCheckDone")
  end
  local job = vim.fn.jobstart(argv, {
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      stdout = data
    end,
    on_stderr = function(_, data)
      stderr = data
    end,
    on_exit = function(_, code)
      vim.schedule(function()
        if code ~= 0 and code ~= 1 then
          done(nil, string.format("exit %d: %s", code, table.concat(stderr, "\n")))
          return
        end
        local ok, payload = pcall(vim.json.decode, table.concat(stdout, "\n"))
        if not ok or type(payload) ~= "table" then
          done(nil, "could not read its JSON output: " .. tostring(payload))
          return
        end
        done(M.quickfix_items(payload), nil)
      end)
    end,
  })
  if job <= 0 then
    done(nil, "could not run " .. argv[1])
  end
end

return M
