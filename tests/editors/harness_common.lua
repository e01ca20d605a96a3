-- What the headless Neovim harnesses share: run `main` once Neovim has started, write the
-- observations as JSON, stop the Gemstack clients (so no server outlives the editor) and quit
-- with a code the Python side reads: 2 when the harness raised, 1 when a wait timed out.
local M = {}

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
