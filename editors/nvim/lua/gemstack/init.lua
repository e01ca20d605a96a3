-- gemstack.nvim: starts gemstack-lsp for Gemstack repositories and adds its commands.
--
--   require("gemstack").setup({
--     cmd = nil,                 -- default: the :GemstackInstall environment, PATH, <root>/.venv,
--                                -- then pipx's and uv's tool folders (as the VS Code extension)
--     python = nil,              -- the Python :GemstackInstall creates its venv with (default: python3, python)
--     settings = { environment = "ci" },   -- the server's settings (section "gemstack")
--     diagnostics = nil,         -- vim.diagnostic.config() for Gemstack's diagnostics only; default:
--                                -- { virtual_text = true } unless you show virtual text/lines already;
--                                -- false: leave them to your global config
--     codelens = true,           -- fetch and refresh code lenses (attach, BufEnter, InsertLeave, diagnostics)
--     keymaps = true,            -- Neovim < 0.10: K is hover in Gemstack buffers (unless you mapped K)
--     omnifunc = true,           -- Neovim < 0.11: <C-x><C-o> completes from the server
--     watch_files = true,        -- tell the server of files changed on disk by other tools
--     statusline = true,         -- keep require("gemstack").statusline() fresh
--     echo_results = false,      -- also echo command results (the server shows its own message)
--     messages = true,           -- the server's long messages as one line (full text: :GemstackMessages)
--     on_attach = function(client, bufnr) end,
--     capabilities = nil,        -- e.g. require("cmp_nvim_lsp").default_capabilities()
--     autostart = true,
--     trusted = true,            -- false (or a function(root) returning false): an untrusted repository;
--                                -- no server from <root>/.venv, the server runs no git and refuses
--                                -- the commands that write files (as VS Code's Restricted Mode)
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

local install = require("gemstack.install")
local status = require("gemstack.status")
local watch = require("gemstack.watch")

--- The server command for a root: opts.cmd, else the first gemstack-lsp found by
--- install.find_server (the :GemstackInstall environment, PATH, <root>/.venv, pipx, uv).
function M.server_cmd(root)
  if M.options.cmd then
    return M.options.cmd
  end
  local found = install.find_server(root, { trusted = M.is_trusted(root) })
  if found then
    return { found, "serve" }
  end
  return nil
end

local missing_reported = false
--- The message shown once when no server is found (every command in it works today: the
--- package is not published, so each installs from a clone or with :GemstackInstall).
function M.missing_message(root)
  local _, tried = install.find_server(root)
  local pip, pipx = install.hints()
  return "the language server gemstack-lsp was not found (tried: "
    .. table.concat(tried, ", ")
    .. "). Run :GemstackInstall to install it into "
    .. install.env_dir()
    .. " from this plugin's clone (needs Python 3.11+ and PyPI for its dependencies), "
    .. "or install it yourself from a clone of gemstack-lsp: `"
    .. pip
    .. "` in a venv, or `"
    .. pipx
    .. "`; or pass cmd to require('gemstack').setup()."
end

local function report_missing(root)
  if missing_reported then
    return
  end
  missing_reported = true
  -- Scheduled: this runs inside the FileType autocommand, where Neovim 0.12 turns an error
  -- message into an exception with a stack trace instead of showing it.
  local message = M.missing_message(root)
  vim.schedule(function()
    notify(message, vim.log.levels.ERROR)
  end)
end

--- Whether this Neovim implements workspace/didChangeWatchedFiles registrations (0.9+).
function M.has_lsp_watcher()
  return (pcall(require, "vim.lsp._watchfiles"))
end

--- Client capabilities: `base`, the user's, and file watching asked for. Neovim 0.10+ does
--- not offer watching on Linux unless asked, and then never tells the server of files that
--- other tools write (a capsule regenerated in a terminal would stay stale).
function M.capabilities(base)
  local caps = vim.tbl_deep_extend("force", base or {}, M.options.capabilities or {})
  -- Markdown only where it is rendered: before 0.10 the hover window shows code spans and
  -- table pipes as typed, and before 0.11 the omnifunc's info window shows the completion
  -- documentation as it is. Ask the server for plain text there (it has both).
  local td = caps.textDocument or {}
  if not has("nvim-0.10") then
    td.hover = vim.tbl_extend("force", td.hover or {}, { contentFormat = { "plaintext" } })
  end
  if not has("nvim-0.11") and M.options.capabilities == nil then
    -- (Not when the user passes capabilities, e.g. nvim-cmp's, which renders Markdown.)
    local completion = td.completion or {}
    completion.completionItem =
      vim.tbl_extend("force", completion.completionItem or {}, { documentationFormat = { "plaintext" } })
    td.completion = completion
  end
  caps.textDocument = td
  if M.options.watch_files ~= false and M.has_lsp_watcher() then
    caps = vim.tbl_deep_extend("force", caps, {
      workspace = { didChangeWatchedFiles = { dynamicRegistration = true } },
    })
  end
  return caps
end

--- Whether the user trusts the repository at `root` (setup's `trusted`, a boolean or a function).
function M.is_trusted(root)
  local trusted = M.options.trusted
  if type(trusted) == "function" then
    return trusted(root) ~= false
  end
  return trusted ~= false
end

--- The plugin's handlers: the server's messages without a hit-enter prompt (messages.lua),
--- unless `messages = false`.
function M.handlers()
  if M.options.messages == false then
    return {}
  end
  return { ["window/showMessage"] = require("gemstack.messages").handler }
end

--- Neovim draws end-of-line virtual text in the order the marks were made: a lens drawn after
--- the diagnostics sat behind their text (past column 200 on a spec's title). So when Neovim
--- has drawn a Gemstack client's lenses, the plugin draws that buffer's Gemstack diagnostics
--- again: the lens comes first, the messages after it. (vim.lsp.codelens.refresh hands its
--- answer to the module's own handler, so the hook is on codelens.display, for Gemstack
--- clients only.)
local function lens_before_messages()
  local lens = vim.lsp.codelens
  if lens.gemstack_display_hooked then
    return
  end
  local display = lens.display
  lens.display = function(lenses, bufnr, client_id, ...)
    local out = display(lenses, bufnr, client_id, ...)
    local client = client_id and vim.lsp.get_client_by_id(client_id)
    if client and client.name == M.name and vim.api.nvim_buf_is_loaded(bufnr) then
      for _, is_pull in ipairs({ false, true }) do
        local ok, ns = pcall(vim.lsp.diagnostic.get_namespace, client_id, is_pull)
        if ok and ns and #vim.diagnostic.get(bufnr, { namespace = ns }) > 0 then
          pcall(vim.diagnostic.show, ns, bufnr)
        end
      end
    end
    return out
  end
  lens.gemstack_display_hooked = true
end

--- The full client configuration for a root (a copy; safe to modify).
function M.config_for(root)
  local config = M.base_config()
  config.name = M.name
  config.cmd = M.server_cmd(root) or config.cmd
  if M.options.settings then
    config.settings = { gemstack = M.options.settings }
  end
  config.on_attach = M.on_attach
  if not M.is_trusted(root) then
    config.init_options = vim.tbl_extend("force", config.init_options or {}, { trusted = false })
  end
  config.handlers = vim.tbl_extend("force", config.handlers or {}, M.handlers())
  -- Neovim 0.7 to 0.10 use `capabilities` as given (no merge with the defaults).
  config.capabilities = M.capabilities(vim.lsp.protocol.make_client_capabilities())
  local on_exit = config.on_exit
  config.on_exit = function(code, signal, client_id)
    watch.stop(client_id)
    if on_exit then
      on_exit(code, signal, client_id)
    end
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
  if not M.server_cmd(root) then
    report_missing(root)
    return
  end
  local config = M.config_for(root)
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
          status.refresh_soon()
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

--- What the Gemstack diagnostics are shown with (vim.diagnostic.config for their namespaces
--- only), or nil to leave them to the user's global config. Neovim 0.11+ shows no virtual
--- text by default: only a sign, and the message is what a Gemstack finding is about.
function M.diagnostic_display()
  local wanted = M.options.diagnostics
  if wanted == false then
    return nil
  end
  if type(wanted) == "table" then
    return wanted
  end
  local global = vim.diagnostic.config() or {}
  if global.virtual_text or global.virtual_lines then
    return nil -- the user already shows messages their way
  end
  return { virtual_text = true }
end

local function show_diagnostics(client)
  local display = M.diagnostic_display()
  if not display then
    return
  end
  -- Pushed and pulled diagnostics have a namespace each on 0.10+ (0.7 ignores `true`).
  for _, is_pull in ipairs({ false, true }) do
    local ok, ns = pcall(vim.lsp.diagnostic.get_namespace, client.id, is_pull)
    if ok and ns then
      vim.diagnostic.config(display, ns)
    end
  end
end

local lens_timers = {}

--- The capsule lens's title in a buffer ("Capsule: STALE · ..."), or nil when it has none.
function M.capsule_lens(bufnr)
  local ok, lenses = pcall(vim.lsp.codelens.get, bufnr)
  for _, lens in ipairs(ok and lenses or {}) do
    local title = lens.command and lens.command.title or ""
    if title:find("^Capsule: ") then
      return title
    end
  end
  return nil
end

--- Makes the capsule lens say the state the statusline says (status.lua calls this when a
--- feature's state changes). Neovim drops a lens refresh asked while another is in flight,
--- so this asks again until the lens says it (every 150 ms, for 6 s at most).
function M.sync_lens(bufnr, state, tries)
  tries = tries or 0
  if M.options.codelens == false or tries > 40 or not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local title = M.capsule_lens(bufnr)
  if title == nil and tries > 0 then
    return -- no capsule lens in this buffer
  end
  if title and title:find("Capsule: " .. state, 1, true) then
    return
  end
  if has("nvim-0.10") then
    vim.lsp.codelens.refresh({ bufnr = bufnr })
  elseif vim.api.nvim_get_current_buf() == bufnr then
    vim.lsp.codelens.refresh()
  else
    return -- 0.7 to 0.9 refresh the current buffer only; BufEnter refreshes this one
  end
  vim.defer_fn(function()
    M.sync_lens(bufnr, state, tries + 1)
  end, 150)
end
--- Code lenses: Neovim fetches them only when asked. Newer Neovims have
--- vim.lsp.codelens.enable(); older ones need a refresh at each moment they may change.
local function follow_codelens(client, bufnr)
  local caps = client.server_capabilities or {}
  if M.options.codelens == false or not caps.codeLensProvider then
    return
  end
  lens_before_messages()
  local lens = vim.lsp.codelens
  if lens.enable then
    pcall(lens.enable, true, { bufnr = bufnr })
    return
  end
  local function refresh()
    if not vim.api.nvim_buf_is_loaded(bufnr) then
      return
    end
    if has("nvim-0.10") then
      lens.refresh({ bufnr = bufnr })
    elseif vim.api.nvim_get_current_buf() == bufnr then
      lens.refresh() -- 0.7 to 0.9 refresh the current buffer only
    end
  end
  refresh()
  local group = vim.api.nvim_create_augroup("gemstack_codelens_" .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave" }, { group = group, buffer = bufnr, callback = refresh })
  -- A regenerate or a fix changes the lenses (the capsule lens says its state) together
  -- with the diagnostics.
  vim.api.nvim_create_autocmd("DiagnosticChanged", {
    group = group,
    buffer = bufnr,
    callback = function()
      local timer = lens_timers[bufnr] or uv.new_timer()
      lens_timers[bufnr] = timer
      timer:stop()
      timer:start(200, 0, vim.schedule_wrap(refresh))
    end,
  })
end

--- Neovim before 0.10 maps K to `man` (keywordprg), and before 0.11 sets 'omnifunc' only
--- when empty (markdown's ftplugin sets htmlcomplete): make both talk to the server, unless
--- the user chose otherwise.
local function buffer_defaults(client, bufnr)
  local caps = client.server_capabilities or {}
  if M.options.keymaps ~= false and not has("nvim-0.10") and caps.hoverProvider then
    if vim.fn.maparg("K", "n") == "" then
      vim.keymap.set("n", "K", vim.lsp.buf.hover, { buffer = bufnr, desc = "gemstack: hover" })
    end
  end
  if M.options.omnifunc ~= false and not has("nvim-0.11") and caps.completionProvider then
    local current = vim.api.nvim_buf_get_option(bufnr, "omnifunc")
    if current == "" or current == "htmlcomplete#CompleteTags" then
      vim.api.nvim_buf_set_option(bufnr, "omnifunc", "v:lua.vim.lsp.omnifunc")
    end
  end
end

--- Another tool changed these files: buffers that show them unmodified are read again
--- (:checktime, when 'autoread' is on), since the server analyses an open buffer's text, not
--- the disk's. Without this, a capsule regenerated in a terminal while context-capsule.json
--- is open would stay stale until Neovim next checks its files (focus, :checktime).
function M.reload_changed(changes)
  if not vim.o.autoread then
    return
  end
  for _, change in ipairs(changes or {}) do
    local ok, bufnr = pcall(vim.uri_to_bufnr, change.uri)
    if ok and vim.api.nvim_buf_is_loaded(bufnr) and not vim.api.nvim_buf_get_option(bufnr, "modified") then
      pcall(vim.cmd, "checktime " .. bufnr)
    end
  end
end

local function follow_watched_files()
  if vim.fn.exists("##LspNotify") ~= 1 then
    return -- 0.7/0.8: the plugin's own watcher calls reload_changed
  end
  vim.api.nvim_create_autocmd("LspNotify", {
    group = vim.api.nvim_create_augroup("gemstack_watched_files", { clear = true }),
    callback = function(args)
      if args.data.method ~= "workspace/didChangeWatchedFiles" then
        return
      end
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == M.name then
        local changes = (args.data.params or {}).changes
        vim.schedule(function()
          M.reload_changed(changes)
        end)
      end
    end,
  })
end

--- What the plugin does for every Gemstack client and buffer it attaches to.
function M.attach_features(client, bufnr)
  show_diagnostics(client)
  follow_codelens(client, bufnr)
  buffer_defaults(client, bufnr)
  if M.options.watch_files ~= false and not M.has_lsp_watcher() then
    watch.start(client.id, client.config and client.config.root_dir)
  end
  if M.options.statusline ~= false then
    status.refresh(bufnr)
  end
end

--- The on_attach of Neovim 0.7 to 0.10 (0.11+ runs attach_features from LspAttach, so that a
--- user's own vim.lsp.config("gemstack", { on_attach = ... }) does not drop it).
function M.on_attach(client, bufnr)
  M.attach_features(client, bufnr)
  if M.options.on_attach then
    M.options.on_attach(client, bufnr)
  end
end

local function is_stopped(client)
  if has("nvim-0.11") then
    return client:is_stopped()
  end
  return client.is_stopped()
end

--- client.stop for every Neovim (0.11 made it a method).
function M.stop_client(client, force)
  if has("nvim-0.11") then
    client:stop(force)
  else
    client.stop(force)
  end
end
local stop = M.stop_client

--- Starts clients for every loaded Gemstack buffer that has none.
function M.start_all()
  missing_reported = false
  if vim.lsp.config and vim.lsp.enable then
    if M.options.autostart ~= false then
      vim.lsp.enable(M.name) -- re-runs its FileType autocommand on every buffer
    end
    return
  end
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    local ft = vim.api.nvim_buf_get_option(bufnr, "filetype")
    if vim.api.nvim_buf_is_loaded(bufnr) and (ft == "markdown" or ft == "json") then
      attach_legacy(bufnr)
    end
  end
end

--- Stops the Gemstack clients (they may run another server) and starts them again.
function M.restart()
  local clients = M.clients()
  for _, client in ipairs(clients) do
    stop(client)
  end
  clients_by_root = {}
  local deadline = uv.now() + 3000
  local timer = uv.new_timer()
  timer:start(
    0,
    50,
    vim.schedule_wrap(function()
      local alive = vim.tbl_filter(function(c)
        return not is_stopped(c)
      end, clients)
      if #alive > 0 and uv.now() < deadline then
        return
      end
      for _, client in ipairs(alive) do
        stop(client, true)
      end
      timer:stop()
      timer:close()
      M.start_all()
    end)
  )
end

--- :GemstackInstall [path-or-URL]: installs the server into the private environment, then
--- (re)starts the Gemstack clients with it. callback(ok, message) when done.
function M.install(source, callback)
  install.install(source, {
    python = M.options.python,
    callback = callback,
    on_success = function()
      if M.options.cmd == nil then
        M.restart()
      end
    end,
  })
end

--- A spec that gets its first Gemstack block makes its folder a Gemstack repository: start
--- the server when such a buffer is written and none is attached to it.
local function follow_first_block()
  vim.api.nvim_create_autocmd("BufWritePost", {
    group = vim.api.nvim_create_augroup("gemstack_first_block", { clear = true }),
    pattern = "*.md",
    callback = function(args)
      for _, c in ipairs(M.clients(args.buf)) do
        if c.attached_buffers and c.attached_buffers[args.buf] then
          return
        end
      end
      if M.root_of(args.buf) then
        M.start_all()
      end
    end,
  })
end

function M.setup(opts)
  M.options = vim.tbl_extend("force", { autostart = true }, opts or {})
  if M.options.autostart then
    follow_first_block()
  end
  if M.options.statusline ~= false then
    status.follow()
  end
  if M.options.watch_files ~= false then
    follow_watched_files()
  end
  if vim.lsp.config and vim.lsp.enable then
    -- Neovim 0.11+: merge our options onto lsp/gemstack.lua.
    local base_root_dir = M.base_config().root_dir
    local overrides = {
      on_attach = M.options.on_attach,
      capabilities = M.capabilities({}),
      -- Start only when there is a server to start (else say once how to install one).
      root_dir = function(bufnr, on_dir)
        base_root_dir(bufnr, function(root)
          if M.server_cmd(root) then
            on_dir(root)
          else
            report_missing(root)
          end
        end)
      end,
    }
    if M.options.cmd then
      overrides.cmd = M.options.cmd
    else
      overrides.cmd = function(dispatchers, config)
        local root = config and config.root_dir
        local cmd = M.server_cmd(root) or { "gemstack-lsp", "serve" }
        return vim.lsp.rpc.start(cmd, dispatchers, { cwd = root })
      end
    end
    if M.options.settings then
      overrides.settings = { gemstack = M.options.settings }
    end
    -- An untrusted repository: the server runs no git and refuses the writing commands.
    overrides.before_init = function(params, config)
      if not M.is_trusted(config and config.root_dir) then
        params.initializationOptions =
          vim.tbl_extend("force", params.initializationOptions or {}, { trusted = false })
      end
    end
    overrides.handlers = M.handlers()
    if M.options.workspace_diagnostics ~= false then
      overrides = vim.tbl_deep_extend("force", M.pull_config(), overrides)
      M.follow_workspace_diagnostics()
    end
    vim.lsp.config(M.name, overrides)
    vim.api.nvim_create_autocmd("LspAttach", {
      group = vim.api.nvim_create_augroup("gemstack_attach", { clear = true }),
      callback = function(args)
        local client = vim.lsp.get_client_by_id(args.data.client_id)
        if client and client.name == M.name then
          M.attach_features(client, args.buf)
        end
      end,
    })
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
  M.start_all()
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
    if M.options.statusline ~= false then
      status.refresh_soon()
    end
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
      elseif M.options.echo_results then
        -- The server says what it did (window/showMessage); repeating it would show it twice.
        notify(title .. ": " .. describe(result))
      end
      if callback then
        callback(err, result)
      end
      M.last_result = { command = server_command, err = err, result = result }
      vim.cmd("doautocmd <nomodeline> User GemstackCommandDone")
    end)
  end
end

M.regenerate_capsule = feature_command("gemstack.regenerateCapsule", "regenerate context capsule")
M.verify_capsule = feature_command("gemstack.verifyCapsule", "verify context capsule")

--- The second action after a refused rename of a frozen contract (or of a test of a frozen spec):
--- renames the id under the cursor to `new_name` through the server's command
--- gemstack.renameFrozenContract, which edits the frozen artifacts on purpose (the Gemstack way is
--- an amendment; the result says what to record). Asks for the name when none is given.
function M.rename_frozen(new_name, bufnr, callback)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.clients(bufnr)[1]
  if not client then
    return M.execute("gemstack.renameFrozenContract", {}, bufnr, callback)
  end
  local win = vim.api.nvim_get_current_win()
  local params = vim.lsp.util.make_position_params(win, client.offset_encoding)
  local function run(name)
    if name == nil or name == "" then
      return
    end
    M.execute("gemstack.renameFrozenContract", { params.textDocument.uri, params.position, name }, bufnr,
      function(err, result)
        if err then
          notify("rename (frozen) failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
        else
          local applied = type(result) == "table" and result.applied
          notify(describe(result), applied and vim.log.levels.INFO or vim.log.levels.WARN)
        end
        M.last_result = { command = "gemstack.renameFrozenContract", err = err, result = result }
        if callback then
          callback(err, result)
        end
        vim.cmd("doautocmd <nomodeline> User GemstackCommandDone")
      end)
  end
  if new_name ~= nil and new_name ~= "" then
    return run(new_name)
  end
  -- The id under the cursor (ids hold letters, digits, '-', '_' and '.').
  local line, col = vim.api.nvim_get_current_line(), vim.api.nvim_win_get_cursor(win)[2] + 1
  local first, last = col, col - 1
  while first > 1 and line:sub(first - 1, first - 1):match("[%w%-_.]") do
    first = first - 1
  end
  while last < #line and line:sub(last + 1, last + 1):match("[%w%-_.]") do
    last = last + 1
  end
  vim.ui.input({ prompt = "Rename frozen id to: ", default = line:sub(first, last) }, run)
end

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
    report_missing(M.root_of(bufnr))
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

--- The capsule state of the current buffer's feature for a statusline ("Capsule STALE"), or
--- "" outside Gemstack buffers. Never blocks: it reads what the server last answered.
function M.statusline()
  return status.statusline()
end

return M
