-- :GemstackInstall: a private environment for the server, and where to look for one.
--
-- The package is not on PyPI, so the plugin installs it from its own checkout (the plugin is
-- editors/nvim inside a clone of gemstack-lsp), or from the path, URL or wheel the user names.
-- Everything here runs as jobs (jobstart): Neovim stays usable while pip works.

local M = {}

local uv = vim.uv or vim.loop

--- The oldest Python the server runs on (pyproject.toml's requires-python).
M.MIN_PYTHON = { 3, 11 }
--- The install from a clone, for messages (the package name alone would not resolve).
M.FROM_CLONE = "python3 -m pip install /path/to/gemstack-lsp"
M.PIPX_FROM_CLONE = "pipx install /path/to/gemstack-lsp"

local function notify(msg, level)
  vim.notify("gemstack: " .. msg, level or vim.log.levels.INFO)
end

local function is_file(path)
  local stat = path and uv.fs_stat(path)
  return stat ~= nil and stat.type ~= "directory"
end

local function executable(path)
  return path ~= nil and path ~= "" and vim.fn.executable(path) == 1
end

--- The private environment :GemstackInstall creates.
function M.env_dir()
  return vim.fn.stdpath("data") .. "/gemstack/venv"
end

function M.env_server()
  return M.env_dir() .. "/bin/gemstack-lsp"
end

local function home()
  return os.getenv("HOME") or vim.fn.expand("~")
end

--- pipx's and uv's folders for an installed tool, in the order they are tried (as in the VS
--- Code extension): pipx's venv of gemstack-lsp, the user's bin folder both link into, uv's
--- tool venv, and uv's own bin folder when it is moved elsewhere.
function M.tool_folders()
  local h = home()
  local out = {}
  local pipx_home = os.getenv("PIPX_HOME")
  if pipx_home and pipx_home ~= "" then
    table.insert(out, pipx_home .. "/venvs/gemstack-lsp/bin")
  else
    -- pipx before 1.3 kept its venvs in ~/.local/pipx; newer ones in ~/.local/share/pipx.
    table.insert(out, h .. "/.local/pipx/venvs/gemstack-lsp/bin")
    table.insert(out, h .. "/.local/share/pipx/venvs/gemstack-lsp/bin")
  end
  local user_bin = os.getenv("PIPX_BIN_DIR")
  if not user_bin or user_bin == "" then
    user_bin = h .. "/.local/bin"
  end
  table.insert(out, user_bin)
  local data_home = os.getenv("XDG_DATA_HOME")
  if not data_home or data_home == "" then
    data_home = h .. "/.local/share"
  end
  local uv_tools = os.getenv("UV_TOOL_DIR")
  if not uv_tools or uv_tools == "" then
    uv_tools = data_home .. "/uv/tools"
  end
  table.insert(out, uv_tools .. "/gemstack-lsp/bin")
  local uv_bin = os.getenv("UV_TOOL_BIN_DIR")
  if uv_bin and uv_bin ~= "" and uv_bin ~= user_bin then
    table.insert(out, uv_bin)
  end
  return out
end

--- Finds the server executable for a repository root. Returns (path or nil, places tried).
--- Order: the :GemstackInstall environment, PATH, <root>/.venv, pipx's and uv's folders.
--- (opts.cmd, which comes first, is handled by the caller.)
function M.find_server(root, opts)
  opts = opts or {}
  local tried = {}
  local function try(path)
    table.insert(tried, path)
    return executable(path) and path or nil
  end
  local found = try(M.env_server())
  if found then
    return found, tried
  end
  table.insert(tried, "gemstack-lsp on PATH")
  local on_path = vim.fn.exepath("gemstack-lsp")
  if on_path ~= "" then
    return on_path, tried
  end
  -- A server inside the repository (its .venv) is a program the repository ships: only for a
  -- repository the user trusts (setup's `trusted`).
  if root and opts.trusted ~= false then
    found = try(root .. "/.venv/bin/gemstack-lsp")
    if found then
      return found, tried
    end
  end
  for _, dir in ipairs(M.tool_folders()) do
    found = try(dir .. "/gemstack-lsp")
    if found then
      return found, tried
    end
  end
  return nil, tried
end

--- The clone of gemstack-lsp this plugin lives in (two folders above editors/nvim), or nil.
function M.checkout()
  -- This file is <checkout>/editors/nvim/lua/gemstack/install.lua (links resolved, so a
  -- symlinked plugin folder still finds its clone).
  local this = vim.fn.resolve(debug.getinfo(1, "S").source:sub(2))
  local root = vim.fn.fnamemodify(this, ":p:h:h:h:h:h")
  local f = io.open(root .. "/pyproject.toml", "r")
  if not f then
    return nil
  end
  local text = f:read("*a")
  f:close()
  if text:match('\nname%s*=%s*"gemstack%-lsp"') then
    return root
  end
  return nil
end

--- The install hints for messages: the clone's real path when the plugin sits in one.
function M.hints()
  local root = M.checkout()
  if not root then
    return M.FROM_CLONE, M.PIPX_FROM_CLONE
  end
  local quoted = vim.fn.shellescape(root)
  return "python3 -m pip install " .. quoted, "pipx install " .. quoted
end

--- Runs argv as a job; done(code, lines) gets its exit code and every output line (stdout
--- and stderr interleaved as they came). Returns false when the program cannot start.
local function run(argv, done)
  local lines = {}
  local function collect(_, data)
    for _, line in ipairs(data or {}) do
      if line ~= "" then
        table.insert(lines, (line:gsub("\r", "")))
      end
    end
  end
  local ok, job = pcall(vim.fn.jobstart, argv, {
    env = { PIP_NO_INPUT = "1", PIP_DISABLE_PIP_VERSION_CHECK = "1" },
    on_stdout = collect,
    on_stderr = collect,
    on_exit = function(_, code)
      vim.schedule(function()
        done(code, lines)
      end)
    end,
  })
  return ok and job > 0
end

local function at_least(version, min)
  return version[1] > min[1] or (version[1] == min[1] and version[2] >= min[2])
end

--- Calls done(python, "3.11") with the first candidate that is a Python 3.11+, or
--- done(nil, refused) with why each candidate was refused.
function M.choose_python(candidates, done)
  local refused = {}
  local i = 0
  local function next_candidate()
    i = i + 1
    local python = candidates[i]
    if python == nil then
      done(nil, refused)
      return
    end
    if not executable(python) then
      table.insert(refused, python .. ": not found")
      return next_candidate()
    end
    local started = run({ python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])" }, function(code, lines)
      local major, minor = (lines[#lines] or ""):match("^(%d+)%.(%d+)")
      if code ~= 0 or not major then
        table.insert(refused, python .. ": " .. (lines[#lines] or ("exit " .. code)))
        return next_candidate()
      end
      local version = { tonumber(major), tonumber(minor) }
      if not at_least(version, M.MIN_PYTHON) then
        table.insert(refused, string.format("%s is Python %d.%d", python, version[1], version[2]))
        return next_candidate()
      end
      done(python, major .. "." .. minor)
    end)
    if not started then
      table.insert(refused, python .. ": could not run it")
      next_candidate()
    end
  end
  next_candidate()
end

local function last_lines(lines, n)
  local from = math.max(1, #lines - n + 1)
  return table.concat(vim.list_slice(lines, from, #lines), "\n")
end

M.running = false
--- Every output line of the last install (for :messages-sized summaries and for tests).
M.log = {}

--- Installs the server into the private environment. `source` is a path, a URL or a wheel
--- (default: this plugin's checkout); `python` the interpreter to create the venv with
--- (default: python3, then python). callback(ok, message) when done; on success the running
--- Gemstack buffers get a client through on_success().
function M.install(source, opts)
  opts = opts or {}
  local callback = opts.callback or function() end
  local function fail(msg)
    M.running = false
    notify("install failed: " .. msg, vim.log.levels.ERROR)
    callback(false, msg)
  end
  if M.running then
    notify("an install is already running", vim.log.levels.WARN)
    return
  end
  if source == nil or source == "" then
    source = M.checkout()
    if not source then
      return fail(
        "this plugin is not inside a clone of gemstack-lsp; pass one: :GemstackInstall /path/to/gemstack-lsp "
          .. "(a clone, a wheel or a pip URL)"
      )
    end
  elseif not source:match("^%a[%w+.-]*://") and (uv.fs_stat(vim.fn.expand(source)) ~= nil) then
    -- A local path: absolute, so that pip does not read it relative to its own cwd.
    source = vim.fn.fnamemodify(vim.fn.expand(source), ":p"):gsub("/$", "")
  end
  M.running = true
  M.log = {}
  local env = M.env_dir()
  local env_python = env .. "/bin/python"
  local candidates = {}
  for _, p in ipairs({ opts.python or "", "python3", "python" }) do
    if p ~= "" and not vim.tbl_contains(candidates, p) then
      table.insert(candidates, p)
    end
  end
  local started_at = uv.hrtime()
  local function step(msg)
    notify(msg)
  end

  local function report(version_line)
    M.running = false
    local seconds = (uv.hrtime() - started_at) / 1e9
    local msg = string.format("installed %s in %s (%.0f s)", version_line, env, seconds)
    notify(msg)
    callback(true, msg)
    if opts.on_success then
      opts.on_success()
    end
  end

  local function pip_install()
    step("installing gemstack-lsp from " .. source .. " (pip; its dependencies come from PyPI)...")
    local argv = { env_python, "-m", "pip", "install", "--upgrade", source }
    local ok = run(argv, function(code, lines)
      vim.list_extend(M.log, lines)
      if code ~= 0 then
        return fail("pip exited " .. code .. ":\n" .. last_lines(lines, 8))
      end
      run({ env .. "/bin/gemstack-lsp", "--version" }, function(vcode, vlines)
        if vcode ~= 0 then
          return fail("the installed gemstack-lsp does not run:\n" .. last_lines(vlines, 8))
        end
        report(vlines[#vlines] or "gemstack-lsp")
      end)
    end)
    if not ok then
      fail("could not run " .. env_python)
    end
  end

  M.choose_python(candidates, function(python, version)
    if not python then
      local refused = version
      return fail(
        string.format(
          "the server needs Python %d.%d or newer, and none was found (tried: %s). "
            .. "Install Python %d.%d+ (e.g. `apt install python3 python3-venv`, or from python.org), "
            .. "or name one: require('gemstack').setup({ python = '/path/to/python3.11' }), then run :GemstackInstall.",
          M.MIN_PYTHON[1],
          M.MIN_PYTHON[2],
          table.concat(refused, "; "),
          M.MIN_PYTHON[1],
          M.MIN_PYTHON[2]
        )
      )
    end
    if is_file(env_python) then
      return pip_install()
    end
    step(string.format("creating the environment %s with %s (Python %s)...", env, python, version))
    vim.fn.mkdir(vim.fn.fnamemodify(env, ":h"), "p")
    local ok = run({ python, "-m", "venv", env }, function(code, lines)
      vim.list_extend(M.log, lines)
      if code ~= 0 then
        -- Debian and Ubuntu split venv out of python3.
        return fail(
          "`" .. python .. " -m venv` exited " .. code .. " (on Debian/Ubuntu: apt install python3-venv):\n"
            .. last_lines(lines, 6)
        )
      end
      pip_install()
    end)
    if not ok then
      fail("could not run " .. python)
    end
  end)
end

return M
