;;; harness.el --- Emacs (eglot) in batch mode driving gemstack-lsp  -*- lexical-binding: t -*-
;;
;;   GEMSTACK_SNIPPET=/tmp/snippet.el GEMSTACK_REPO=/tmp/demo GEMSTACK_FEATURE=specs/009-context-capsule \
;;   GEMSTACK_EXPECTED='["CONTEXT_CAPSULE_STALE"]' GEMSTACK_RESULT=/tmp/out.json \
;;     emacs --batch -Q -l tests/editors/harness.el
;;
;; Loads the setup of docs/editors.md (GEMSTACK_SNIPPET, extracted by the test), opens the
;; feature's spec.md as a user would, and writes what eglot saw as JSON to GEMSTACK_RESULT:
;; the Flymake diagnostics, a hover, the code actions, the diagnostics after running the
;; "Regenerate the context capsule" action, what eglot asked and said, and the server's stderr.
;; Exits 0 when every step finished, 1 when a wait timed out, 2 when the harness failed.

(load (expand-file-name "harness_common.el" (file-name-directory load-file-name)) nil t)

(defconst gemstack-harness-feature (gemstack-harness--env "GEMSTACK_FEATURE"))
(defconst gemstack-harness-expected
  (append (json-read-from-string (gemstack-harness--env "GEMSTACK_EXPECTED")) nil))
(defconst gemstack-harness-hover-needle "\"capsule-is-derived-not-authority\"")
(defconst gemstack-harness-regenerate "Regenerate the context capsule")

(defun gemstack-harness--diagnostics ()
  "Flymake's diagnostics of the current buffer, with the LSP code eglot kept for each."
  (save-restriction
    (widen)
    (mapcar
     (lambda (d)
       (let* ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))))
              (beg (flymake-diagnostic-beg d)))
         (list (cons 'code (plist-get lsp :code))
               (cons 'line (1- (line-number-at-pos beg)))
               (cons 'column (save-excursion (goto-char beg) (current-column)))
               (cons 'type (symbol-name (flymake-diagnostic-type d)))
               (cons 'text (flymake-diagnostic-text d)))))
     (flymake-diagnostics))))

(defun gemstack-harness--codes ()
  (sort (delete-dups (mapcar (lambda (d) (alist-get 'code d)) (gemstack-harness--diagnostics))) #'string<))

(defun gemstack-harness--action-summary (action)
  (let ((command (plist-get action :command)))
    (list (cons 'title (plist-get action :title))
          (cons 'kind (plist-get action :kind))
          (cons 'command (if (stringp command) command (plist-get command :command))))))

(defun gemstack-harness--scenario ()
  (gemstack-harness--start-emacs)
  (find-file (expand-file-name (concat gemstack-harness-feature "/spec.md") gemstack-harness-repo))
  (gemstack-harness--put 'major_mode (symbol-name major-mode))
  ;; The command loop runs post-command-hook after find-file; eglot-ensure connects there.
  (run-hooks 'post-command-hook)
  (unless (gemstack-harness--wait "connect" (lambda () (eglot-current-server)))
    (error "eglot did not connect (hooks: %S)" markdown-mode-hook))
  (let ((server (eglot-current-server)))
    (gemstack-harness--put 'server_info (eglot--server-info server))
    (gemstack-harness--put
     'workspace_configuration
     (json-read-from-string (json-encode (eglot--workspace-configuration-plist server))))
    (gemstack-harness--put 'hover_formats
                           (plist-get (plist-get (plist-get (eglot-client-capabilities server) :textDocument)
                                                 :hover)
                                      :contentFormat))
    (gemstack-harness--wait "diagnostics"
                            (lambda () (equal (gemstack-harness--codes) gemstack-harness-expected)))
    (gemstack-harness--put 'diagnostics (gemstack-harness--diagnostics))
    ;; Hover on a contract id, as eldoc asks for it.
    (goto-char (point-min))
    (search-forward gemstack-harness-hover-needle)
    (goto-char (+ (match-beginning 0) 5))
    (let* ((hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)))
           (contents (plist-get hover :contents)))
      (gemstack-harness--put 'hover_kind (plist-get contents :kind))
      (gemstack-harness--put 'hover_value (plist-get contents :value))
      (gemstack-harness--put 'hover_rendered
                             (substring-no-properties (eglot--hover-info contents (plist-get hover :range)))))
    ;; M-x eglot-code-actions at the start of the file, where the capsule finding is.
    (goto-char (point-min))
    (let ((actions (eglot-code-actions (point) (point))))
      (gemstack-harness--put 'actions (mapcar #'gemstack-harness--action-summary actions))
      ;; Pick "Regenerate the context capsule" from the menu eglot offers (typed, as after
      ;; M-x, not clicked: a mouse event would make eglot pop up a graphical menu).
      (cl-letf (((symbol-value 'last-nonmenu-event) ?\r)
                ((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (or (car (cl-find gemstack-harness-regenerate collection :key #'car :test #'equal))
                       (error "no %S among %S" gemstack-harness-regenerate (mapcar #'car collection))))))
        (eglot--read-execute-code-action actions server)))
    (gemstack-harness--wait "regenerated"
                            (lambda () (not (member "CONTEXT_CAPSULE_STALE" (gemstack-harness--codes)))))
    (gemstack-harness--put 'after_regenerate (gemstack-harness--diagnostics))
    (let ((stderr (get-buffer (format "*%s stderr*" (process-name (jsonrpc--process server))))))
      (eglot-shutdown server)
      (gemstack-harness--put 'server_stderr
                             (if stderr (with-current-buffer stderr (buffer-substring-no-properties
                                                                     (point-min) (point-max)))
                               "")))))

(gemstack-harness-run #'gemstack-harness--scenario)

;;; harness.el ends here
