-- :checkhealth gemstack — Neovim, the server (found where, which version, on which Python), the
-- running client, file watching, Markdown highlighting of Gemstack blocks, the repository's
-- configuration file and its capsule state. Runs on Neovim 0.7 to 0.12.

local M = {}

local uv = vim.uv or vim.loop

--- vim.health on 0.8+ (start/ok since 0.10, report_* before), require("health") on 0.7.
local function reporter()
  local h = vim.health
  if h == nil or (h.start == nil and h.report_start == nil) then
    h = require("health")
  end
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

local function has(feature)
  return vim.fn.has(feature) == 1
end

--- The first line a program prints (stdout and stderr), or nil and why not.
local function first_line(argv)
  if vim.fn.executable(argv[1]) ~= 1 then
    return nil, argv[1] .. " is not executable"
  end
  local out = vim.fn.system(argv)
  if vim.v.shell_error ~= 0 then
    return nil, string.format("%s exited %d: %s", table.concat(argv, " "), vim.v.shell_error, vim.trim(out))
  end
  return vim.trim(out):match("^[^\n]*")
end

--- The interpreter a console script runs with (its #! line), or nil.
local function script_python(path)
  local f = io.open(path, "r")
  if not f then
    return nil
  end
  local line = f:read("*l") or ""
  f:close()
  local python = line:match("^#!%s*(%S+)")
  if python and python:match("python[%d%.]*$") then
    return python
  end
  return nil
end

--- The buffer :checkhealth was run from (it opens its own buffer first).
local function checked_buffer()
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.api.nvim_buf_get_option(bufnr, "buftype") ~= "" then
    local alt = vim.fn.bufnr("#")
    if alt > 0 and vim.api.nvim_buf_is_loaded(alt) then
      return alt
    end
  end
  return bufnr
end

--- The folder checked: the current buffer's repository root, else the working directory's.
local function current_root()
  local gemstack = require("gemstack")
  local bufnr = checked_buffer()
  local ok, root = pcall(gemstack.root_of, bufnr)
  if ok and root then
    return root, true
  end
  local dir = vim.fn.getcwd()
  while dir and dir ~= "" do
    if uv.fs_stat(dir .. "/.gemstack") or uv.fs_stat(dir .. "/specs") then
      return dir, false
    end
    local up = vim.fn.fnamemodify(dir, ":h")
    if up == dir then
      break
    end
    dir = up
  end
  return nil, false
end

local function check_neovim(r)
  r.start("Neovim")
  local v = vim.version()
  local text = string.format("Neovim %d.%d.%d", v.major, v.minor, v.patch)
  if not has("nvim-0.7") then
    r.error(text .. ": the plugin needs Neovim 0.7 or newer")
  elseif has("nvim-0.11") then
    r.ok(text .. ": vim.lsp.config and vim.lsp.enable")
  elseif has("nvim-0.8") then
    r.ok(text .. ": vim.lsp.start (the plugin's fallback for 0.8 to 0.10)")
  else
    r.ok(text .. ": vim.lsp.start_client (the plugin's fallback for 0.7)")
  end
end

local function check_server(r, root)
  local gemstack = require("gemstack")
  local install = require("gemstack.install")
  r.start("gemstack-lsp")
  local cmd = gemstack.server_cmd(root)
  if not cmd then
    r.error("the server was not found", { gemstack.missing_message(root) })
    return
  end
  local where = gemstack.options.cmd and "setup({ cmd = ... })" or "the lookup"
  local version, why = first_line({ cmd[1], "--version" })
  if version then
    r.ok(string.format("%s (found by %s): %s", cmd[1], where, version))
  else
    r.error(string.format("%s (found by %s) does not run: %s", cmd[1], where, why), {
      "Run :GemstackInstall to (re)install it into " .. install.env_dir(),
    })
  end
  local python = script_python(vim.fn.exepath(cmd[1]) ~= "" and vim.fn.exepath(cmd[1]) or cmd[1])
  if python then
    local pv = first_line({ python, "--version" })
    if pv then
      r.ok("its Python: " .. python .. " (" .. pv .. ")")
    else
      r.warn("its Python " .. python .. " does not run", { "Run :GemstackInstall to recreate the environment" })
    end
  else
    r.info("its Python: not named by " .. cmd[1] .. " (not a pip console script)")
  end
end

local function check_client(r, root)
  local gemstack = require("gemstack")
  r.start("Client")
  local bufnr = checked_buffer()
  local attached = nil
  for _, c in ipairs(gemstack.clients(bufnr)) do
    if c.attached_buffers and c.attached_buffers[bufnr] then
      attached = c
    end
  end
  local all = gemstack.clients()
  if attached then
    -- server_info (the initialize answer's serverInfo) is kept by Neovim 0.9+ only.
    local info = attached.server_info or {}
    local name = info.version and ((info.name or "gemstack-lsp") .. " " .. info.version) or "gemstack-lsp"
    r.ok(string.format(
      "running for this buffer: %s, root %s, positions in %s",
      name,
      (attached.config or {}).root_dir or "?",
      attached.offset_encoding or "?"
    ))
  elseif #all > 0 then
    r.info(string.format("%d client(s) running, none attached to this buffer", #all))
  elseif root and require("gemstack.root").is_gemstack(root) then
    r.info("no client running: open a spec, plan, tasks or capsule file of " .. root)
  else
    r.info("no client running (not in a Gemstack repository)")
  end
  local state = require("gemstack.status").state(bufnr)
  if state and type(state.state) == "string" then
    local msg = "capsule of " .. (state.feature or "this feature") .. ": " .. state.state
    if state.state == "VALID" or state.state == "LEGACY" then
      r.ok(msg)
    else
      r.warn(msg, { state.summary or "", ":GemstackRegenerateCapsule regenerates it" })
    end
  end
end

local function check_watching(r)
  local gemstack = require("gemstack")
  r.start("File watching")
  if gemstack.options.watch_files == false then
    r.warn("off (watch_files = false): files other tools change reach the server within 4 s only")
  elseif gemstack.has_lsp_watcher() then
    if vim.fn.executable("inotifywait") == 1 then
      r.ok("Neovim's watcher, with inotifywait")
    elseif has("linux") then
      r.ok("Neovim's watcher (libuv; install inotify-tools for inotifywait)")
    else
      r.ok("Neovim's watcher")
    end
  else
    r.ok("the plugin's own watcher (this Neovim has none)")
  end
end

local function ts_parser(lang)
  if not (vim.treesitter and vim.treesitter.language) then
    return false
  end
  -- add() raises (0.10) or returns nil (0.11+) when there is no parser: ask inspect() after.
  local language = vim.treesitter.language
  if language.add then
    pcall(language.add, lang)
    return (pcall(language.inspect, lang))
  end
  return (pcall(language.require_language, lang, nil, true))
end

local function check_highlighting(r)
  r.start("Highlighting of Gemstack blocks")
  local queries = vim.api.nvim_get_runtime_file("queries/markdown/injections.scm", true)
  local ours = false
  for _, q in ipairs(queries) do
    local f = io.open(q, "r")
    if f then
      ours = ours or (f:read("*a") or ""):find("@_gemstack_lang", 1, true) ~= nil
      f:close()
    end
  end
  local markdown, json = ts_parser("markdown"), ts_parser("json")
  if markdown and json and ours then
    r.ok("tree-sitter: markdown and json parsers, and the plugin's injection query")
  elseif not ours then
    r.warn("the plugin's queries/markdown/injections.scm is not on the runtimepath")
  else
    r.info(
      "tree-sitter: markdown parser " .. (markdown and "found" or "missing") .. ", json parser "
        .. (json and "found" or "missing") .. " (with both and vim.treesitter.start(), blocks are JSON)"
    )
  end
  if vim.g.gemstack_json_fences == false then
    r.info("regex syntax: off (vim.g.gemstack_json_fences = false)")
  else
    r.ok("regex syntax: ```gemstack-* blocks use Vim's JSON syntax")
  end
end

local function check_configuration(r, root)
  r.start("Repository")
  if not root then
    r.info("not in a Gemstack repository (no .gemstack/ or specs/ above " .. vim.fn.getcwd() .. ")")
    return
  end
  if require("gemstack.root").is_gemstack(root) then
    r.ok("Gemstack repository: " .. root)
  else
    r.info(root .. " has specs/ but no .gemstack/ and no Gemstack block: the plugin stays quiet there")
  end
  local project = root .. "/.gemstack/lsp.toml"
  if uv.fs_stat(project) then
    r.ok("configuration file: " .. project)
    return
  end
  local pyproject = root .. "/pyproject.toml"
  local f = io.open(pyproject, "r")
  if f then
    local text = f:read("*a") or ""
    f:close()
    if text:match("%[tool%.gemstack%-lsp%]") then
      r.ok("configuration: [tool.gemstack-lsp] in " .. pyproject)
      return
    end
  end
  r.info("no configuration file (.gemstack/lsp.toml or [tool.gemstack-lsp] in pyproject.toml): defaults and editor settings apply")
end

function M.check()
  local r = reporter()
  local root = current_root()
  check_neovim(r)
  check_server(r, root)
  check_client(r, root)
  check_watching(r)
  check_highlighting(r)
  check_configuration(r, root)
end

return M
