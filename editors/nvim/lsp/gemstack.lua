-- gemstack-lsp for Neovim 0.11+: `vim.lsp.config("gemstack", {...})` merges onto this table and
-- `vim.lsp.enable("gemstack")` starts the server. The plugin's fallback for Neovim 0.7 to 0.10
-- reads this same file, so there is one description of the server.
--
-- The server is started only for Gemstack files (Markdown under specs/, context-capsule.json,
-- cost-ledger.json, .gemstack/*.json) inside a Gemstack repository: a folder that holds
-- `.gemstack/`, or `specs/` with at least one Gemstack block (lua/gemstack/root.lua). A
-- spec-kit repository (specs/ and no Gemstack block) gets no server.

local uv = vim.uv or vim.loop

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function parent(path)
  local dir = path:match("^(.*)/[^/]*$")
  if dir == nil or dir == "" then
    return "/"
  end
  return dir
end

--- The nearest folder above `file` that holds one of the markers, or nil.
local function find_root(file, markers)
  local dir = parent(file)
  while true do
    for _, marker in ipairs(markers) do
      if exists(dir .. "/" .. marker) then
        return dir
      end
    end
    local up = parent(dir)
    if up == dir then
      return nil
    end
    dir = up
  end
end

--- Whether the server has anything to say about this file.
local function is_gemstack_file(file)
  local name = file:match("[^/]*$")
  if name == "context-capsule.json" or name == "cost-ledger.json" then
    return true
  end
  if file:match("/%.gemstack/[^/]+%.json$") then
    return true
  end
  return file:match("/specs/.+%.md$") ~= nil
end

local root_markers = { ".gemstack", "specs" }

return {
  cmd = { "gemstack-lsp", "serve" },
  filetypes = { "markdown", "json" },
  root_markers = root_markers,
  -- Called as root_dir(bufnr, on_dir) by Neovim 0.11+ (and by the plugin's fallback): the server
  -- starts only when on_dir is called, so other Markdown and JSON files are left alone.
  root_dir = function(bufnr, on_dir)
    local file = vim.api.nvim_buf_get_name(bufnr)
    if file == "" or not is_gemstack_file(file) then
      return
    end
    local root = find_root(file, root_markers)
    if not root then
      return
    end
    local ok, gemstack_root = pcall(require, "gemstack.root")
    if ok and not gemstack_root.is_gemstack(root, bufnr) then
      return
    end
    on_dir(root)
  end,
  -- Settings under the section "gemstack", as in VS Code: environment, debounceMs,
  -- maxLedgerAgeDays, diagnostics, hover, codeActions, codeLens, completion, navigation, logLevel.
  settings = { gemstack = vim.empty_dict() },
  -- The server also reads its settings from initializationOptions.
  before_init = function(params, config)
    if params.initializationOptions == nil or vim.tbl_isempty(params.initializationOptions) then
      params.initializationOptions = (config.settings or {}).gemstack or vim.empty_dict()
    end
  end,
}
