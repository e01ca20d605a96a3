-- :GemstackInstall: a private environment for the server, and where to look for one.
--
-- The package is not on PyPI, so the plugin installs it from its own checkout (the plugin is
-- editors/nvim inside a clone of gemstack-lsp), or from the path, URL or wheel the user names,
-- or offline from a wheelhouse (a release's gemstack-lsp-wheelhouse-<platform>-<version>.tar.gz,
-- or a folder of wheels): pip install --no-index --find-links.
-- Everything here runs as jobs (jobstart): Neovim stays usable while pip works. A failure is
-- told in one or two sentences; pip's whole output goes to M.log_file().

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

--- The folder of the `gemstack-lsp` link that :GemstackTerminal puts first on PATH (it holds
--- that one link, so the environment's python is not put on PATH with it).
function M.bin_dir()
  return vim.fn.stdpath("data") .. "/gemstack/bin"
end

--- The file that keeps the whole output of the last install.
function M.log_file()
  local ok, dir = pcall(vim.fn.stdpath, "log")
  if not ok or type(dir) ~= "string" then
    dir = vim.fn.stdpath("cache")
  end
  return dir .. "/gemstack-install.log"
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
    -- PYTHONPATH and PYTHONHOME emptied (Python ignores them then): a PYTHONPATH of the user's
    -- would make pip see, and skip, packages that are not in the environment it installs into.
    env = { PIP_NO_INPUT = "1", PIP_DISABLE_PIP_VERSION_CHECK = "1", PYTHONPATH = "", PYTHONHOME = "" },
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

--- Calls done(python, "3.11", has_pip) with the first candidate that is a Python 3.11+ (has_pip:
--- its pip can install into another interpreter), or done(nil, refused) with why each was refused.
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
    local probe = "import sys; print('%d.%d' % sys.version_info[:2])\n"
      .. "try:\n import pip; print('pip ' + pip.__version__)\nexcept Exception: print('pip none')"
    local started = run({ python, "-c", probe }, function(code, lines)
      local pip_major, pip_minor = (lines[#lines] or ""):match("^pip (%d+)%.(%d+)")
      local major, minor = (lines[#lines - 1] or ""):match("^(%d+)%.(%d+)")
      if code ~= 0 or not major then
        table.insert(refused, python .. ": " .. (lines[#lines] or ("exit " .. code)))
        return next_candidate()
      end
      local version = { tonumber(major), tonumber(minor) }
      if not at_least(version, M.MIN_PYTHON) then
        table.insert(refused, string.format("%s is Python %d.%d", python, version[1], version[2]))
        return next_candidate()
      end
      -- pip 22.3+ installs into another interpreter (--python): the venv then needs no pip of its own.
      local pip_python = pip_major and (tonumber(pip_major) > 22 or (tonumber(pip_major) == 22 and tonumber(pip_minor) >= 3))
      done(python, major .. "." .. minor, pip_python)
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

-- pip's and urllib3's words for a network it cannot reach, a full disk, a refused permission,
-- a Python without venv, an index without the package (as the VS Code extension tells them apart).
local FAILURES = {
  {
    "disk",
    { "No space left on device", "%[Errno 28%]", "Disk quota exceeded" },
    "the disk is full. Free some space, then run :GemstackInstall again.",
  },
  {
    "venv",
    { "ensurepip is not available", "No module named venv" },
    "this Python cannot create virtual environments. On Debian or Ubuntu: apt install python3-venv, then run :GemstackInstall again.",
  },
  {
    "network",
    {
      "Failed to establish a new connection",
      "NewConnectionError",
      "Temporary failure in name resolution",
      "Name or service not known",
      "nodename nor servname provided",
      "Network is unreachable",
      "No route to host",
      "Connection refused",
      "Connection reset by peer",
      "timed out",
      "ProxyError",
      "SSLError",
      "CERTIFICATE_VERIFY_FAILED",
      "Could not fetch URL",
      "Max retries exceeded",
    },
    "pip could not reach the package index (no network, or a proxy or firewall in the way). "
      .. "Connect and run :GemstackInstall again, or install offline from a release's wheelhouse: "
      .. ":GemstackInstall /path/to/gemstack-lsp-wheelhouse-<platform>-<version>.tar.gz",
  },
  {
    "permission",
    { "Permission denied", "%[Errno 13%]" },
    "permission denied (the log names the path). Fix the folder's permissions, then run :GemstackInstall again.",
  },
  {
    "index",
    { "No matching distribution found", "Could not find a version that satisfies" },
    "pip found no suitable version of a dependency (in the wheelhouse, or on the index pip's settings name). "
      .. "Check that the wheelhouse is for this platform and Python, or pip's index settings, then run :GemstackInstall again.",
  },
}

--- Why a step failed: (kind, one or two sentences), from its output lines.
function M.explain(step, lines)
  local text = table.concat(lines or {}, "\n")
  for _, failure in ipairs(FAILURES) do
    for _, pattern in ipairs(failure[2]) do
      if text:find(pattern) then
        return failure[1], step .. " failed: " .. failure[3]
      end
    end
  end
  return "other", step .. " failed (see the log). Run :GemstackInstall again, or set require('gemstack').setup({ cmd = ... })."
end

--- A wheelhouse among :GemstackInstall's arguments: a folder of wheels (and no pyproject.toml),
--- or a .tar.gz / .tgz of one (unpacked into the cache). Returns (folder or nil, error or nil).
function M.wheelhouse(source)
  local stat = uv.fs_stat(source)
  if not stat then
    return nil, nil
  end
  if stat.type == "directory" then
    if is_file(source .. "/pyproject.toml") then
      return nil, nil
    end
    local wheels = vim.fn.glob(source .. "/*.whl", false, true)
    if #wheels == 0 then
      wheels = vim.fn.glob(source .. "/*/*.whl", false, true)
    end
    if #wheels == 0 then
      return nil, nil
    end
    return vim.fn.fnamemodify(wheels[1], ":h"), nil
  end
  if not (source:match("%.tar%.gz$") or source:match("%.tgz$")) then
    return nil, nil
  end
  local dest = vim.fn.stdpath("cache") .. "/gemstack/wheelhouse"
  vim.fn.delete(dest, "rf")
  vim.fn.mkdir(dest, "p")
  local out = vim.fn.system({ "tar", "-xzf", source, "-C", dest })
  if vim.v.shell_error ~= 0 then
    return nil, "could not unpack " .. source .. ": " .. vim.trim(out)
  end
  local wheels = vim.fn.glob(dest .. "/*.whl", false, true)
  vim.list_extend(wheels, vim.fn.glob(dest .. "/*/*.whl", false, true))
  if #wheels == 0 then
    return nil, source .. " holds no wheels"
  end
  return vim.fn.fnamemodify(wheels[1], ":h"), nil
end

--- Links bin_dir()/gemstack-lsp to `server`, so a terminal with bin_dir() first on PATH runs it.
function M.link_cli(server)
  local dir = M.bin_dir()
  vim.fn.mkdir(dir, "p")
  local link = dir .. "/gemstack-lsp"
  pcall(uv.fs_unlink, link)
  local ok = pcall(uv.fs_symlink, server, link)
  return ok and executable(link) and link or nil
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
  local function write_log()
    local f = io.open(M.log_file(), "w")
    if f then
      f:write(table.concat(M.log, "\n"), "\n")
      f:close()
    end
  end
  -- One or two sentences in the notification; every line pip printed in M.log and the log file.
  local function fail(msg)
    M.running = false
    write_log()
    if #M.log > 0 then
      msg = msg .. " (pip's output: " .. M.log_file() .. ")"
    end
    notify("install failed: " .. msg, vim.log.levels.ERROR)
    callback(false, msg)
  end
  if M.running then
    notify("an install is already running", vim.log.levels.WARN)
    return
  end
  M.log = {}
  if source == nil or source == "" then
    source = M.checkout()
    if not source then
      return fail(
        "this plugin is not inside a clone of gemstack-lsp; pass one: :GemstackInstall /path/to/gemstack-lsp "
          .. "(a clone, a wheel, a pip URL, or a release's wheelhouse .tar.gz)"
      )
    end
  elseif not source:match("^%a[%w+.-]*://") and (uv.fs_stat(vim.fn.expand(source)) ~= nil) then
    -- A local path: absolute, so that pip does not read it relative to its own cwd.
    source = vim.fn.fnamemodify(vim.fn.expand(source), ":p"):gsub("/$", "")
  end
  local wheelhouse, unpack_error = M.wheelhouse(source)
  if unpack_error then
    return fail(unpack_error)
  end
  M.running = true
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
    write_log()
    local seconds = (uv.hrtime() - started_at) / 1e9
    local link = M.link_cli(env .. "/bin/gemstack-lsp")
    local msg = string.format("installed %s in %s (%.0f s)", version_line, env, seconds)
    if link then
      msg = msg .. "; the CLI: " .. link .. " (:GemstackTerminal opens a terminal with it on PATH)"
    end
    notify(msg)
    callback(true, msg)
    if opts.on_success then
      opts.on_success()
    end
  end

  -- pip: the environment's own, else the chosen Python's pip installing into the environment.
  local function pip_install(python, host_pip)
    local pip
    if is_file(env .. "/bin/pip") then
      pip = { env_python, "-m", "pip" }
    elseif host_pip then
      pip = { python, "-m", "pip", "--python", env_python }
    else
      return fail("the environment " .. env .. " has no pip; delete it and run :GemstackInstall again")
    end
    local argv = vim.list_extend(pip, { "install", "--upgrade" })
    if wheelhouse then
      step("installing gemstack-lsp from the wheelhouse " .. wheelhouse .. " (offline)...")
      vim.list_extend(argv, { "--no-index", "--find-links", wheelhouse, "gemstack-lsp" })
    else
      step("installing gemstack-lsp from " .. source .. " (pip; its dependencies come from PyPI)...")
      table.insert(argv, source)
    end
    table.insert(M.log, "$ " .. table.concat(argv, " "))
    local ok = run(argv, function(code, lines)
      vim.list_extend(M.log, lines)
      if code ~= 0 then
        local _, why = M.explain("pip", lines)
        return fail(why)
      end
      run({ env .. "/bin/gemstack-lsp", "--version" }, function(vcode, vlines)
        vim.list_extend(M.log, vlines)
        if vcode ~= 0 then
          return fail("the installed gemstack-lsp does not run: " .. (vlines[#vlines] or ("exit " .. vcode)))
        end
        report(vlines[#vlines] or "gemstack-lsp")
      end)
    end)
    if not ok then
      fail("could not run " .. pip[1])
    end
  end

  M.choose_python(candidates, function(python, version, host_pip)
    if not python then
      local refused = version
      table.insert(M.log, "Pythons refused: " .. table.concat(refused, "; "))
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
      return pip_install(python, host_pip)
    end
    step(string.format("creating the environment %s with %s (Python %s)...", env, python, version))
    vim.fn.mkdir(vim.fn.fnamemodify(env, ":h"), "p")
    -- Without pip of its own when the chosen Python's pip can install into it: ensurepip is most
    -- of the time a new environment takes.
    local venv = { python, "-m", "venv" }
    if host_pip then
      table.insert(venv, "--without-pip")
    end
    table.insert(venv, env)
    table.insert(M.log, "$ " .. table.concat(venv, " "))
    local ok = run(venv, function(code, lines)
      vim.list_extend(M.log, lines)
      if code ~= 0 then
        local _, why = M.explain("`" .. python .. " -m venv`", lines)
        return fail(why)
      end
      pip_install(python, host_pip)
    end)
    if not ok then
      fail("could not run " .. python)
    end
  end)
end

--- The gemstack-lsp the plugin would run for the current buffer's repository (opts.cmd first),
--- or nil and the places tried.
function M.current_server()
  local ok, gemstack = pcall(require, "gemstack")
  local cmd = ok and gemstack.options and gemstack.options.cmd
  if type(cmd) == "table" and cmd[1] then
    return vim.fn.exepath(cmd[1]) ~= "" and vim.fn.exepath(cmd[1]) or cmd[1], {}
  end
  local root = vim.fs and vim.fs.root and vim.fs.root(0, { "specs", ".gemstack", ".git" }) or vim.fn.getcwd()
  return M.find_server(root)
end

--- :GemstackPath: says where gemstack-lsp is and puts the path in the unnamed (and +) register.
function M.show_path()
  local server, tried = M.current_server()
  if not server then
    notify("no gemstack-lsp found (looked in: " .. table.concat(tried, "; ") .. "). Run :GemstackInstall.", vim.log.levels.WARN)
    return nil
  end
  vim.fn.setreg('"', server)
  pcall(vim.fn.setreg, "+", server)
  notify(server .. " (copied; :GemstackTerminal opens a terminal with it on PATH)")
  return server
end

--- :GemstackTerminal: a terminal in a split whose PATH starts with a folder holding gemstack-lsp
--- (a link to the server the plugin runs), so the docs' terminal examples work as written.
function M.open_terminal()
  local server, tried = M.current_server()
  if not server then
    notify("no gemstack-lsp found (looked in: " .. table.concat(tried, "; ") .. "). Run :GemstackInstall.", vim.log.levels.WARN)
    return nil
  end
  local link = M.link_cli(server)
  local dir = link and M.bin_dir() or vim.fn.fnamemodify(server, ":h")
  local path = dir .. ":" .. (os.getenv("PATH") or "")
  vim.cmd("botright split")
  vim.cmd("enew")
  local opts = { env = { PATH = path } }
  local job
  if vim.fn.has("nvim-0.11") == 1 then
    opts.term = true
    job = vim.fn.jobstart({ vim.o.shell }, opts)
  else
    job = vim.fn.termopen({ vim.o.shell }, opts)
  end
  vim.cmd("startinsert")
  return job, dir
end

return M
