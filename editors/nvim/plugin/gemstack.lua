-- gemstack.nvim commands. The language server itself starts with require("gemstack").setup().
if vim.g.loaded_gemstack then
  return
end
vim.g.loaded_gemstack = true

local function complete_features(arglead)
  return vim.fn.glob((arglead ~= "" and arglead or "specs/") .. "*", false, true)
end

vim.api.nvim_create_user_command("GemstackRegenerateCapsule", function(args)
  require("gemstack").regenerate_capsule(args.args)
end, {
  nargs = "?",
  complete = complete_features,
  desc = "Regenerate the context capsule of the current feature (or the given specs/<feature>)",
})

vim.api.nvim_create_user_command("GemstackVerify", function(args)
  require("gemstack").verify_capsule(args.args)
end, {
  nargs = "?",
  complete = complete_features,
  desc = "Verify the context capsule of the current feature (read-only)",
})

vim.api.nvim_create_user_command("GemstackRenameFrozen", function(args)
  require("gemstack").rename_frozen(args.args)
end, {
  nargs = "?",
  desc = "Rename the id under the cursor through a frozen phase, on purpose (after a refused rename)",
})

vim.api.nvim_create_user_command("GemstackCheck", function(args)
  require("gemstack").check(args.args)
end, {
  nargs = "?",
  complete = "dir",
  desc = "Run gemstack-lsp check on the repository and fill the quickfix list",
})

vim.api.nvim_create_user_command("GemstackInstall", function(args)
  require("gemstack").install(args.args)
end, {
  nargs = "?",
  complete = "file",
  desc = "Install gemstack-lsp into a private environment (from this plugin's clone, a path, wheel or URL, or a wheelhouse offline)",
})

-- JSON highlighting of ```gemstack-* blocks in Markdown (lua/gemstack/highlight.lua).
require("gemstack.highlight").follow()

vim.api.nvim_create_user_command("GemstackMessages", function()
  require("gemstack.messages").open()
end, { desc = "Show the full text of gemstack-lsp's recent messages" })
vim.api.nvim_create_user_command("GemstackPath", function()
  require("gemstack.install").show_path()
end, { desc = "Show the path of the gemstack-lsp the plugin runs, and copy it" })

vim.api.nvim_create_user_command("GemstackTerminal", function()
  require("gemstack.install").open_terminal()
end, { desc = "Open a terminal with the plugin's gemstack-lsp first on PATH" })
