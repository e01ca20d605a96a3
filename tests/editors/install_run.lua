-- Headless Neovim runs :GemstackInstall once and reports what the user saw.
--
--   GEMSTACK_PLUGIN=editors/nvim GEMSTACK_SOURCE=/path/to/wheelhouse.tar.gz GEMSTACK_RESULT=/tmp/out.json \
--   nvim --headless --clean -u tests/editors/install_run.lua
--
-- GEMSTACK_SOURCE is :GemstackInstall's argument ("" for the plugin's own clone). Writes to
-- GEMSTACK_RESULT: ok, the callback's message, every notification, the install's time, what
-- :GemstackPath said and copied, and the install log's path. Exits 1 when the install timed out.

local PLUGIN = assert(os.getenv("GEMSTACK_PLUGIN"), "GEMSTACK_PLUGIN is required")
local SOURCE = os.getenv("GEMSTACK_SOURCE") or ""
local RESULT = assert(os.getenv("GEMSTACK_RESULT"), "GEMSTACK_RESULT is required")
local TIMEOUT = tonumber(os.getenv("GEMSTACK_INSTALL_TIMEOUT_MS") or "300000")

vim.opt.swapfile = false
vim.opt.shadafile = "NONE"
vim.opt.runtimepath:prepend(PLUGIN)
vim.cmd("runtime plugin/gemstack.lua")

local uv = vim.uv or vim.loop
local R = { messages = {} }
vim.notify = function(msg, level)
  table.insert(R.messages, { level = level, message = tostring(msg) })
end

local install = require("gemstack.install")
local started = uv.hrtime()
local done = false
install.install(SOURCE, {
  callback = function(ok, message)
    R.ok, R.message, done = ok, message, true
  end,
})
local finished = vim.wait(TIMEOUT, function()
  return done
end, 50)
R.install_ms = math.floor((uv.hrtime() - started) / 1e6)
R.log_file = install.log_file()
R.bin_dir = install.bin_dir()
if finished and R.ok then
  vim.cmd("GemstackPath")
  R.path_message = R.messages[#R.messages].message
  R.register = vim.fn.getreg('"')
  -- :GemstackTerminal, then the docs' terminal example typed into it.
  vim.o.shell = "sh"
  vim.cmd("GemstackTerminal")
  local job = vim.b.terminal_job_id
  R.terminal = job ~= nil
  if job then
    vim.fn.chansend(job, "gemstack-lsp --version; command -v gemstack-lsp\n")
    vim.wait(30000, function()
      -- Joined without newlines: the terminal wraps long lines.
      local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "")
      return text:find("gemstack%-lsp %d+%.%d+") ~= nil and text:find("/gemstack/bin/gemstack%-lsp") ~= nil
    end, 50)
    R.terminal_text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "")
    vim.fn.jobstop(job)
  end
end

local f = assert(io.open(RESULT, "w"))
f:write(vim.json and vim.json.encode(R) or vim.fn.json_encode(R))
f:close()
vim.cmd(finished and "qall!" or "cquit 1")
