-- Which folders are Gemstack repositories. A folder is one when it holds `.gemstack/`, or when
-- a Markdown file of its `specs/<feature>/` folders has at least one Gemstack block (a fence
-- whose info string starts with `gemstack-`). A spec-kit repository (`specs/###/spec.md` and
-- no Gemstack block) is not: the plugin starts no server there.

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

--- Whether any of the lines opens a Gemstack block.
function M.has_block(lines)
  for _, line in ipairs(lines) do
    if M.opens_block(line) then
      return true
    end
  end
  return false
end

local function file_has_block(path)
  local f = io.open(path, "r")
  if not f then
    return false
  end
  local text = f:read(M.MAX_BYTES) or ""
  f:close()
  for line in text:gmatch("[^\n]*") do
    if M.opens_block(line) then
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
      for _, file in ipairs(entries(dir)) do
        if file.kind == "file" and file.name:match("%.md$") then
          read = read + 1
          if read > M.MAX_FILES then
            return false
          end
          if file_has_block(dir .. "/" .. file.name) then
            return true
          end
        end
      end
    end
  end
  return false
end

return M
