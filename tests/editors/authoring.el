;;; authoring.el --- Emacs (eglot 1.9) in batch mode: the authoring features  -*- lexical-binding: t -*-
;;
;;   GEMSTACK_SNIPPET=/tmp/snippet.el GEMSTACK_REPO=/tmp/demo GEMSTACK_RESULT=/tmp/out.json \
;;     emacs --batch -Q -l tests/editors/authoring.el
;;
;; Loads the setup of docs/editors.md (GEMSTACK_SNIPPET), then does what a user does with
;; eglot's own commands, on a demo copy whose specs/009 is not frozen (the test clears the
;; phase hashes): the document highlight that eglot requests with eldoc, completion-at-point in
;; a new gemstack-contracts block, eglot-format (a region of specs/010's billable-actions block,
;; then the whole buffer) and eglot-rename of a 009 contract id, the buffers saved afterwards.
;; What the editor showed is written to GEMSTACK_RESULT as JSON; the test compares it (and the
;; files on disk) with what it computes itself. Exits 0 when every step finished, 1 when a wait
;; timed out, 2 when the harness failed.

(load (expand-file-name "harness_common.el" (file-name-directory load-file-name)) nil t)

(defconst gemstack-harness-spec9 "specs/009-context-capsule/spec.md")
(defconst gemstack-harness-spec10 "specs/010-release-notes/spec.md")
(defconst gemstack-harness-highlight-id "zero-dependency-core")
(defconst gemstack-harness-rename-from "capsule-offline-deterministic")
(defconst gemstack-harness-rename-to "capsule-offline-repeatable")
(defconst gemstack-harness-spec8 "specs/008-cost-provider-safety-gates/spec.md")
(defconst gemstack-harness-frozen-from "upgrade-c-cost-states")

(defun gemstack-harness--text ()
  (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))

(defun gemstack-harness--where (pos)
  "POS as (0-based line, character column)."
  (save-excursion (goto-char pos) (list (1- (line-number-at-pos pos)) (current-column))))

(defun gemstack-harness--open (rel)
  "Visit REL as a user would (the command loop runs post-command-hook, where eglot-ensure
connects) and wait for eglot."
  (find-file (expand-file-name rel gemstack-harness-repo))
  (run-hooks 'post-command-hook)
  (unless (gemstack-harness--wait (concat "connect " rel) (lambda () (eglot-current-server)))
    (error "eglot did not connect in %s" rel))
  (current-buffer))

(defun gemstack-harness--block (fence)
  "Line numbers (1-based) of FENCE's line and of its closing ``` line."
  (save-excursion
    (goto-char (point-min))
    (search-forward fence)
    (let ((first (line-number-at-pos)))
      (re-search-forward "^```$")
      (list first (line-number-at-pos)))))

(defun gemstack-harness--squeeze (fence)
  "FENCE's block body joined onto one line, its runs of blanks collapsed."
  (pcase-let ((`(,first ,close) (gemstack-harness--block fence)))
    (save-excursion
      (goto-char (point-min))
      (forward-line first)
      (let* ((beg (point))
             (end (progn (forward-line (- close first 1)) (1- (point))))
             (body (replace-regexp-in-string
                    "[ \t\n]+" " " (buffer-substring-no-properties beg end))))
        (delete-region beg end)
        (goto-char beg)
        (insert body)))))

(defun gemstack-harness--scenario ()
  (gemstack-harness--start-emacs)
  (gemstack-harness--put 'eglot (package-desc-version (cadr (assq 'eglot package-alist))))
  (let ((spec9 (gemstack-harness--open gemstack-harness-spec9)))
    ;; Document highlight: eglot 1.9 asks for it along with the hover eldoc asks for (M-x eldoc).
    (goto-char (point-min))
    (search-forward (concat "\"" gemstack-harness-highlight-id "\""))
    (goto-char (+ (match-beginning 0) 3))
    (gemstack-harness--put 'highlight_at (gemstack-harness--where (point)))
    (eldoc t)
    (gemstack-harness--wait "document highlight" (lambda () eglot--highlights))
    (gemstack-harness--put
     'highlight
     (mapcar (lambda (ov)
               (vconcat (gemstack-harness--where (overlay-start ov))
                        (list (cadr (gemstack-harness--where (overlay-end ov)))
                              (symbol-name (overlay-get ov 'face)))))
             (sort (copy-sequence eglot--highlights)
                   (lambda (a b) (< (overlay-start a) (overlay-start b))))))

    ;; Completion in a new gemstack-contracts block at the end: the candidates eglot's capf
    ;; offers after `"type": "`, then M-x completion-at-point after a typed prefix.
    (let ((before (gemstack-harness--text)))
      (goto-char (point-max))
      (insert "\n```gemstack-contracts\n[\n  {\"id\": \"x\", \"type\": \"")
      (let ((capf (eglot-completion-at-point)))
        (gemstack-harness--put
         'completion_labels
         (and capf (sort (all-completions (buffer-substring-no-properties (nth 0 capf) (nth 1 capf))
                                          (nth 2 capf))
                         #'string<))))
      (insert "IDEN")
      (completion-at-point)
      (gemstack-harness--put 'completion_line
                             (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
      ;; Leave the buffer as it was (a didChange like any other edit).
      (erase-buffer)
      (insert before)
      (set-buffer-modified-p nil)
      ;; What eglot's idle timer does once the user stops typing (batch Emacs is never idle):
      ;; send the pending didChange. eglot-rename's request is not deferred, so without it the
      ;; server's edit carries the older version and eglot refuses it.
      (eglot--signal-textDocument/didChange))

    ;; Formatting in specs/010: both blocks squeezed; eglot-format on the billable-actions
    ;; line (what it does with an active region), written; then eglot-format-buffer.
    (gemstack-harness--open gemstack-harness-spec10)
    (gemstack-harness--squeeze "```gemstack-capabilities")
    (gemstack-harness--squeeze "```gemstack-billable-actions")
    (gemstack-harness--put 'squeezed (gemstack-harness--text))
    (pcase-let ((`(,first ,_close) (gemstack-harness--block "```gemstack-billable-actions")))
      (goto-char (point-min))
      (forward-line first)
      (eglot-format (line-beginning-position) (line-end-position)))
    (gemstack-harness--put 'range_formatted (gemstack-harness--text))
    (save-buffer)
    (gemstack-harness--put 'range_formatted_disk
                           (with-temp-buffer
                             (insert-file-contents (expand-file-name gemstack-harness-spec10 gemstack-harness-repo))
                             (buffer-string)))
    (gemstack-harness--squeeze "```gemstack-billable-actions")
    (gemstack-harness--put 'squeezed_again (gemstack-harness--text))
    (eglot-format-buffer)
    (gemstack-harness--put 'formatted (gemstack-harness--text))
    (save-buffer)

    ;; Rename: M-x eglot-rename on a 009 contract id; eglot visits the other files and asks
    ;; once (answered yes, kept in `prompts'); then C-x s saves every buffer.
    (switch-to-buffer spec9)
    (goto-char (point-min))
    (search-forward (concat "\"" gemstack-harness-rename-from "\""))
    (goto-char (+ (match-beginning 0) 4))
    (eglot-rename gemstack-harness-rename-to)
    (gemstack-harness--put 'renamed_buffers
                           (sort (cl-loop for b in (buffer-list)
                                          when (and (buffer-file-name b) (buffer-modified-p b))
                                          collect (file-relative-name (buffer-file-name b)
                                                                      gemstack-harness-repo))
                                 #'string<))
    (save-some-buffers t)
    ;; A rename of a contract of the frozen 008 spec: what eglot says, and the buffer after.
    (gemstack-harness--open gemstack-harness-spec8)
    (goto-char (point-min))
    (search-forward (concat "\"" gemstack-harness-frozen-from "\""))
    (goto-char (+ (match-beginning 0) 4))
    (condition-case err
        (progn (eglot-rename "upgrade-c-states") (gemstack-harness--put 'frozen_error nil))
      (error (gemstack-harness--put 'frozen_error (error-message-string err))))
    (gemstack-harness--put 'frozen_modified (if (buffer-modified-p) t :json-false))
    (dolist (server (hash-table-values eglot--servers-by-project))
      (dolist (s server) (ignore-errors (eglot-shutdown s))))))

(gemstack-harness-run #'gemstack-harness--scenario)

;;; authoring.el ends here
