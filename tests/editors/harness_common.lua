-- What the headless Neovim harnesses share (harness.lua, authoring.lua, client_experience.lua,
-- fresh_user.lua). A harness loads it first with
--
--   local common = dofile(debug.getinfo(1, "S").source:sub(2):match("^(.*)/[^/]*$") .. "/harness_common.lua")
--
-- and `common.new()` reads the usual environment, sets Neovim's options, starts the clock and
-- the result table; `H.run(main)` runs main once Neovim has started, writes the observations
-- as JSON, stops the Gemstack clients (so no server outlives the editor) and quits with a code
-- the Python side reads: 2 when the harness raised, 1 when a wait timed out.
local M = {}

--- The environment variable `name`, or `default` when it is unset or empty; without a default,
--- an error naming the harness (`who`).
function M.env(name, default, who)
  local v = os.getenv(name)
  if v == nil or v == "" then
    if default == nil then
      error((who or "harness") .. ": environment variable " .. name .. " is required")
    end
    return default
  end
  return v
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then
    return nil
  end
  local data = f:read("*a")
  f:close()
  return data
end
--- A file's bytes, or nil when it cannot be read.
M.read_file = read_file

--- True when the first Gemstack client of `bufnr` is attached to it and initialized.
function M.attached(bufnr)
  local c = require("gemstack").clients(bufnr)[1]
  return c ~= nil and c.attached_buffers ~= nil and c.attached_buffers[bufnr] == true and c.initialized ~= false
end

--- A diagnostic's LSP code (Neovim 0.7 keeps it in user_data.lsp only).
function M.code_of(d)
  if d.code ~= nil then
    return d.code
  end
  return d.user_data and d.user_data.lsp and d.user_data.lsp.code
end

--- The first diagnostic (of every buffer) whose code is `code`, or nil.
function M.diagnostic_with(code)
  for _, d in ipairs(vim.diagnostic.get(nil)) do
    if M.code_of(d) == code then
      return d
    end
  end
  return nil
end

--- A harness: reads GEMSTACK_PLUGIN, GEMSTACK_LSP (unless opts.server == false), GEMSTACK_REPO,
--- GEMSTACK_RESULT and GEMSTACK_TIMEOUT_MS (default 20000) into H.PLUGIN, H.SERVER, H.REPO,
--- H.RESULT, H.TIMEOUT; puts the plugin first on 'runtimepath' (unless opts.runtimepath ==
--- false: the harness does it itself) with no swap or ShaDa file and 'hidden' set; and gives
---   H.env(name, default)   another variable (opts.who names the harness in errors)
---   H.ms()                 milliseconds since new()
---   H.R                    the result: R.nvim, R.steps, R.messages, R.timeouts
---   H.note(msg, level)     records a message in R.messages (vim.notify does) and returns it
---   H.wait(name, cond, timeout)  vim.wait for cond (TIMEOUT by default), recorded in R.steps
---                          as {ok, ms, at}, its name in R.timeouts when it timed out
---   H.write()              R as JSON to H.RESULT
---   H.run(main)            main at VimEnter, then the shared tail (M.run_at_start)
function M.new(opts)
  opts = opts or {}
  local H = {}
  H.env = function(name, default)
    return M.env(name, default, opts.who)
  end
  H.PLUGIN = H.env("GEMSTACK_PLUGIN")
  if opts.server ~= false then
    H.SERVER = H.env("GEMSTACK_LSP")
  end
  H.REPO = H.env("GEMSTACK_REPO")
  H.RESULT = H.env("GEMSTACK_RESULT")
  H.TIMEOUT = tonumber(H.env("GEMSTACK_TIMEOUT_MS", "20000"))

  if opts.runtimepath ~= false then
    vim.opt.runtimepath:prepend(H.PLUGIN)
  end
  vim.opt.swapfile = false
  vim.o.hidden = true
  vim.opt.shadafile = "NONE"

  local uv = vim.uv or vim.loop
  local t0 = uv.hrtime()
  local function ms()
    return math.floor((uv.hrtime() - t0) / 1e6)
  end
  H.ms = ms

  local V = vim.version()
  local R = { nvim = V.major .. "." .. V.minor .. "." .. V.patch }
  R.steps, R.messages, R.timeouts = {}, {}, {}
  H.R = R

  function H.note(msg, level)
    local entry = { level = level, message = tostring(msg), ms = ms() }
    table.insert(R.messages, entry)
    return entry
  end
  vim.notify = function(msg, level)
    H.note(msg, level)
  end

  function H.wait(name, cond, timeout)
    local started = ms()
    local ok = vim.wait(timeout or H.TIMEOUT, cond, 20)
    R.steps[name] = { ok = ok, ms = ms() - started, at = ms() }
    if not ok then
      table.insert(R.timeouts, name)
    end
    return ok
  end

  function H.write()
    local f = assert(io.open(H.RESULT, "w"))
    f:write(vim.json.encode(R))
    f:close()
  end

  function H.run(main)
    M.run_at_start(main, R, H.write, ms)
  end
  return H
end

--- Runs main() at VimEnter; `R` is the result table (R.timeouts, R.error, R.total_ms are set
--- here), `write(R)` saves it, `ms()` is the harness's clock.
function M.run_at_start(main, R, write, ms)
  vim.api.nvim_create_autocmd("VimEnter", {
    callback = function()
      vim.schedule(function()
        local ok, err = xpcall(main, debug.traceback)
        R.total_ms = ms()
        if not ok then
          R.error = tostring(err)
        end
        pcall(write, R)
        local gemstack = require("gemstack")
        for _, c in ipairs(gemstack.clients()) do
          pcall(gemstack.stop_client, c, true)
        end
        if not ok then
          vim.cmd("cquit 2")
        elseif #R.timeouts > 0 then
          vim.cmd("cquit 1")
        else
          vim.cmd("qall!")
        end
      end)
    end,
  })
end

return M
