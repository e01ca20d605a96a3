-- Which folders are Gemstack repositories, as the server decides it (core/identity.py): a
-- folder is one when it holds `.gemstack/`, or when one of its features (`specs/<feature>/`)
-- has a context-capsule.json or closure.json, or a spec.md, plan.md or tasks.md with a Gemstack
-- block (a fence whose info string starts with `gemstack-`) or Gemstack task metadata
-- (`<!-- gemstack:tests=... -->`). A spec-kit repository (`specs/###/spec.md` and no Gemstack
-- block) is not: the plugin starts no server there.

local M = {}

local uv = vim.uv or vim.loop

--- At most this many Markdown files are read per scan (a huge specs/ is not read whole).
M.MAX_FILES = 400
--- At most this many bytes are read per file.
M.MAX_BYTES = 1024 * 1024

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

--- Whether a line opens a Gemstack block: up to three spaces, ``` or ~~~ (or longer), then
--- `gemstack-`.
function M.opens_block(line)
  return line:match("^ ? ? ?```+%s*gemstack%-") ~= nil or line:match("^ ? ? ?~~~+%s*gemstack%-") ~= nil
end

--- Whether a line carries Gemstack task metadata (`<!-- gemstack:tests=... -->`).
function M.has_metadata(line)
  return line:match("<!%-%-[ \t]*gemstack:[a-z_]+=") ~= nil
end

--- Whether any of the lines opens a Gemstack block or carries Gemstack task metadata.
function M.has_block(lines)
  for _, line in ipairs(lines) do
    if M.opens_block(line) or M.has_metadata(line) then
      return true
    end
  end
  return false
end

--- The files of a feature that make it Gemstack by existing, and those read for markup.
M.ARTIFACTS = { "context-capsule.json", "closure.json" }
M.DOCUMENTS = { "spec.md", "plan.md", "tasks.md" }

local function file_has_block(path)
  local f = io.open(path, "r")
  if not f then
    return false
  end
  local text = f:read(M.MAX_BYTES) or ""
  f:close()
  for line in text:gmatch("[^\n]*") do
    if M.opens_block(line) or M.has_metadata(line) then
      return true
    end
  end
  return false
end

local function entries(dir)
  local out = {}
  local handle = uv.fs_scandir(dir)
  if not handle then
    return out
  end
  while true do
    local name, kind = uv.fs_scandir_next(handle)
    if not name then
      break
    end
    table.insert(out, { name = name, kind = kind })
  end
  table.sort(out, function(a, b)
    return a.name < b.name
  end)
  return out
end

--- Whether `root` is a Gemstack repository. `bufnr` (optional): a buffer whose unsaved text
--- counts too (a spec that just got its first block).
function M.is_gemstack(root, bufnr)
  if root == nil then
    return false
  end
  if exists(root .. "/.gemstack") then
    return true
  end
  if bufnr and vim.api.nvim_buf_is_loaded(bufnr) and M.has_block(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) then
    return true
  end
  local read = 0
  for _, feature in ipairs(entries(root .. "/specs")) do
    if feature.kind == "directory" then
      local dir = root .. "/specs/" .. feature.name
      for _, name in ipairs(M.ARTIFACTS) do
        if exists(dir .. "/" .. name) then
          return true
        end
      end
      for _, name in ipairs(M.DOCUMENTS) do
        read = read + 1
        if read > M.MAX_FILES then
          return false
        end
        if file_has_block(dir .. "/" .. name) then
          return true
        end
      end
    end
  end
  return false
end

return M
