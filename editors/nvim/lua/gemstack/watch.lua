-- File watching for Neovim 0.7 and 0.8, which have no LSP file watcher of their own.
--
-- Another tool (a terminal's `gemstack-lsp context generate`, git, a script) changes the specs
-- behind the editor's back; the server only learns of it through
-- workspace/didChangeWatchedFiles. Neovim 0.9+ implements the server's watch registrations
-- (the plugin asks for them); on 0.7/0.8 the plugin watches the repository itself with libuv
-- and sends the same notification. (The server also looks at the disk every few seconds for
-- clients that cannot watch: this is the prompt path, that the fallback.)
--
-- libuv's fs_event is not recursive on Linux (inotify), so every folder below specs/ and
-- .gemstack/ gets its own handle, and folders created later are added as they appear.

local M = {}

local uv = vim.uv or vim.loop

--- Base names analysis reads outside specs/ and .gemstack/ (the server's watched globs).
local ARTIFACTS = { ["cost-ledger.json"] = true, ["context-capsule.json"] = true, ["closure.json"] = true }
--- Folders never worth watching.
local SKIP = { [".git"] = true, node_modules = true, [".venv"] = true, __pycache__ = true }
--- How long changes are collected before one notification is sent (editors and tools write
--- a file in several steps: truncate, write, rename).
M.DEBOUNCE_MS = 50
--- How deep below specs/ and .gemstack/ folders are watched.
local MAX_DEPTH = 6

local FILE_CHANGED, FILE_DELETED = 2, 3

--- Per client id: { handles = {dir = handle}, pending = {path = true}, timer = handle }.
local watchers = {}
--- What was sent, for tests and :lua =require("gemstack.watch").stats.
M.stats = { notifications = 0, changes = 0, last = nil }

local function in_tree(rel)
  return rel == "specs" or rel == ".gemstack" or rel:match("^specs/") ~= nil or rel:match("^%.gemstack/") ~= nil
end

local function relevant(root, path)
  local rel = path:sub(#root + 2)
  return in_tree(rel) or ARTIFACTS[rel:match("[^/]+$") or ""] == true
end

local function flush(client_id, root)
  local w = watchers[client_id]
  if not w then
    return
  end
  local client = vim.lsp.get_client_by_id(client_id)
  if not client or client.is_stopped() then
    M.stop(client_id)
    return
  end
  local changes = {}
  for path in pairs(w.pending) do
    local stat = uv.fs_stat(path)
    if stat and stat.type == "directory" then
      if in_tree(path:sub(#root + 2)) then
        M.add_tree(client_id, root, path, 0)
      end
    elseif relevant(root, path) then
      table.insert(changes, { uri = vim.uri_from_fname(path), type = stat and FILE_CHANGED or FILE_DELETED })
    end
  end
  w.pending = {}
  if #changes == 0 then
    return
  end
  table.sort(changes, function(a, b)
    return a.uri < b.uri
  end)
  client.notify("workspace/didChangeWatchedFiles", { changes = changes })
  require("gemstack").reload_changed(changes)
  M.stats.notifications = M.stats.notifications + 1
  M.stats.changes = M.stats.changes + #changes
  M.stats.last = { at = uv.hrtime(), changes = changes }
end

local function on_event(client_id, root, dir)
  return function(err, filename)
    local w = watchers[client_id]
    if err or not w then
      return
    end
    w.pending[filename and (dir .. "/" .. filename) or dir] = true
    w.timer:stop()
    w.timer:start(M.DEBOUNCE_MS, 0, function()
      vim.schedule(function()
        flush(client_id, root)
      end)
    end)
  end
end

--- Watches `dir` (one handle) and, below `depth`, the folders inside it.
function M.add_tree(client_id, root, dir, depth)
  local w = watchers[client_id]
  if not w or w.handles[dir] then
    return
  end
  local handle = uv.new_fs_event()
  if not handle then
    return
  end
  local ok = handle:start(dir, {}, on_event(client_id, root, dir))
  if not ok then
    handle:close()
    return
  end
  w.handles[dir] = handle
  if depth >= MAX_DEPTH then
    return
  end
  local scan = uv.fs_scandir(dir)
  while scan do
    local name, kind = uv.fs_scandir_next(scan)
    if not name then
      break
    end
    if kind == "directory" and not SKIP[name] then
      M.add_tree(client_id, root, dir .. "/" .. name, depth + 1)
    end
  end
end

--- Starts watching a client's repository root (once per client).
function M.start(client_id, root)
  if watchers[client_id] or not root then
    return
  end
  watchers[client_id] = { handles = {}, pending = {}, timer = uv.new_timer() }
  -- The root itself, not recursively: specs/ or .gemstack/ may be created later, and a
  -- cost-ledger.json may sit at the top.
  local w = watchers[client_id]
  local handle = uv.new_fs_event()
  if handle and handle:start(root, {}, on_event(client_id, root, root)) then
    w.handles[root] = handle
  end
  for _, sub in ipairs({ "specs", ".gemstack" }) do
    local stat = uv.fs_stat(root .. "/" .. sub)
    if stat and stat.type == "directory" then
      M.add_tree(client_id, root, root .. "/" .. sub, 0)
    end
  end
end

function M.stop(client_id)
  local w = watchers[client_id]
  if not w then
    return
  end
  watchers[client_id] = nil
  for _, handle in pairs(w.handles) do
    if not handle:is_closing() then
      handle:stop()
      handle:close()
    end
  end
  if not w.timer:is_closing() then
    w.timer:stop()
    w.timer:close()
  end
end

--- The folders watched for a client (for tests).
function M.watched(client_id)
  local out = {}
  for dir in pairs((watchers[client_id] or {}).handles or {}) do
    table.insert(out, dir)
  end
  table.sort(out)
  return out
end

return M
