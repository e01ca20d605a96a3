;;; eglot_authoring.el --- Emacs (eglot) in batch mode: rename, formatting, completion  -*- lexical-binding: t -*-
;;
;;   GEMSTACK_SNIPPET=/tmp/snippet.el GEMSTACK_REPO=/tmp/demo GEMSTACK_RESULT=/tmp/out.json \
;;     emacs --batch -Q -l tests/editors/eglot_authoring.el
;;
;; The authoring features through eglot's own commands, on a demo copy whose specs/009 is
;; unfrozen (the test clears state.json's phase hashes), with the setup of docs/editors.md
;; (GEMSTACK_SNIPPET). In order: `completion-at-point' in a contracts block typed at the end of
;; 010's spec (the candidates offered after `"type": "', then `"IDEN' completed), the typed
;; lines removed again; `eglot-format-buffer' on 010's spec with its capabilities block squeezed
;; onto one line, saved; `eglot-rename' of a 009 contract id, every buffer it changed saved.
;; What eglot showed goes to GEMSTACK_RESULT as JSON; the test compares the files on disk.
;; Exits 0 when every step finished, 1 when a wait timed out, 2 when the harness failed.

(require 'cl-lib)
(require 'json)
(require 'package)

(defun gemstack-harness--env (name &optional default)
  (let ((v (getenv name)))
    (if (and v (not (string-empty-p v))) v
      (or default (error "harness: environment variable %s is required" name)))))

(defconst gemstack-harness-repo (file-name-as-directory (gemstack-harness--env "GEMSTACK_REPO")))
(defconst gemstack-harness-result (gemstack-harness--env "GEMSTACK_RESULT"))
(defconst gemstack-harness-timeout (string-to-number (gemstack-harness--env "GEMSTACK_TIMEOUT_S" "20")))
(defconst gemstack-harness-spec9 "specs/009-context-capsule/spec.md")
(defconst gemstack-harness-spec10 "specs/010-release-notes/spec.md")
;; The same names as in test_eglot.py.
(defconst gemstack-harness-rename-from "capsule-offline-deterministic")
(defconst gemstack-harness-rename-to "capsule-offline-repeatable")

(defvar gemstack-harness-t0 (float-time))
(defvar gemstack-harness-R (list (cons 'steps nil) (cons 'timeouts nil) (cons 'prompts nil)))

(defun gemstack-harness--ms () (round (* 1000 (- (float-time) gemstack-harness-t0))))

(defun gemstack-harness--put (key value)
  (setf (alist-get key gemstack-harness-R) value))

(defun gemstack-harness--push (key value)
  (gemstack-harness--put key (append (alist-get key gemstack-harness-R) (list value))))

(defun gemstack-harness--write ()
  (with-temp-file gemstack-harness-result
    (let ((json-encoding-pretty-print nil))
      (insert (json-encode gemstack-harness-R)))))

(defun gemstack-harness--wait (name predicate)
  "Let timers and processes run until PREDICATE holds; record the step NAME."
  (let ((started (gemstack-harness--ms))
        (deadline (+ (float-time) gemstack-harness-timeout))
        ok)
    (while (and (not (setq ok (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (gemstack-harness--push 'steps (list (cons 'name name) (cons 'ok (if ok t :json-false))
                                         (cons 'ms (- (gemstack-harness--ms) started))))
    (unless ok (gemstack-harness--push 'timeouts name))
    ok))

(defun gemstack-harness--open (rel)
  "Visit REL of the repository as a user would; wait for eglot to manage the buffer."
  (find-file (expand-file-name rel gemstack-harness-repo))
  (run-hooks 'post-command-hook)
  (let ((buffer (current-buffer)))
    (unless (gemstack-harness--wait (concat "connect " rel)
                                    (lambda () (with-current-buffer buffer (eglot-current-server))))
      (error "eglot did not manage %s" rel))
    (eglot-current-server)))

(defun gemstack-harness--line ()
  (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(defun gemstack-harness--complete (line)
  "Insert LINE on a line of its own at point, then M-x completion-at-point at its end.
The candidates eglot offered and the line completion left."
  (insert line)
  (let (candidates)
    (cl-letf* ((default completion-in-region-function)
               (completion-in-region-function
                (lambda (start end collection predicate)
                  (setq candidates (all-completions (buffer-substring-no-properties start end)
                                                    collection predicate))
                  (funcall default start end collection predicate))))
      (completion-at-point))
    ;; Eglot applies a completion's text edit in its exit function; let it run.
    (accept-process-output nil 0.1)
    (list (cons 'typed line) (cons 'candidates (vconcat candidates)) (cons 'result (gemstack-harness--line)))))

(defun gemstack-harness--scenario ()
  ;; What a Debian user's Emacs does at start-up (as in harness.el), then the user's init.
  (setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
  (package-initialize)
  (setq make-backup-files nil create-lockfiles nil)
  (load (gemstack-harness--env "GEMSTACK_SNIPPET") nil t)
  (advice-add 'y-or-n-p :around
              (lambda (_orig prompt &rest _) (gemstack-harness--push 'prompts prompt) t))
  (advice-add 'yes-or-no-p :around
              (lambda (_orig prompt &rest _) (gemstack-harness--push 'prompts prompt) t))
  (gemstack-harness--put 'emacs emacs-version)
  (let ((server (gemstack-harness--open gemstack-harness-spec10)))
    (gemstack-harness--put 'server_info (eglot--server-info server))
    ;; Completion: a contracts block typed at the end of 010's spec.
    (let ((original (buffer-string)))
      (goto-char (point-max))
      (insert "\n```gemstack-contracts\n[\n\n]\n```\n")
      (forward-line -3)
      (gemstack-harness--put
       'completion
       (list (gemstack-harness--complete "  {\"id\": \"x\", \"type\": \"")
             (progn (delete-region (line-beginning-position) (line-end-position))
                    (gemstack-harness--complete "  {\"id\": \"x\", \"type\": \"IDEN"))))
      ;; The typed lines removed: the buffer as it was.
      (erase-buffer)
      (insert original)
      (gemstack-harness--put 'restored (equal original (buffer-string))))
    ;; Formatting: the capabilities block squeezed onto one line, M-x eglot-format-buffer, saved.
    (goto-char (point-min))
    (search-forward "```gemstack-capabilities\n")
    (let* ((start (point))
           (end (progn (search-forward "\n```") (match-beginning 0)))
           (body (replace-regexp-in-string "[ \t\n]+" " " (buffer-substring-no-properties start end))))
      (delete-region start end)
      (goto-char start)
      (insert body))
    (gemstack-harness--put 'squeezed (buffer-substring-no-properties (point-min) (point-max)))
    (call-interactively #'eglot-format-buffer)
    (gemstack-harness--put 'formatted (buffer-substring-no-properties (point-min) (point-max)))
    (save-buffer))
  ;; Rename: M-x eglot-rename on a 009 contract id, the new name typed at its prompt.
  (let ((server (gemstack-harness--open gemstack-harness-spec9)))
    (goto-char (point-min))
    (search-forward (concat "\"" gemstack-harness-rename-from "\""))
    (goto-char (+ (match-beginning 0) 4))
    (cl-letf (((symbol-function 'read-from-minibuffer)
               (lambda (prompt &rest _)
                 (gemstack-harness--push 'prompts prompt)
                 gemstack-harness-rename-to)))
      (call-interactively #'eglot-rename))
    (gemstack-harness--put
     'rename_modified
     (vconcat (sort (delq nil (mapcar (lambda (b)
                                        (and (buffer-modified-p b) (buffer-file-name b)
                                             (file-relative-name (buffer-file-name b) gemstack-harness-repo)))
                                      (buffer-list)))
                    #'string<)))
    (gemstack-harness--put 'rename_server (jsonrpc-name server))
    (save-some-buffers t)
    ;; Every server's stderr, then all of them shut down. Without version control (the demo
    ;; copy has no .git), eglot's project is the file's folder: one server per spec folder.
    (let* ((servers (cl-loop for ss being the hash-values of eglot--servers-by-project append ss))
           (stderr (mapcar (lambda (s) (get-buffer (format "*%s stderr*" (process-name (jsonrpc--process s)))))
                           servers)))
      (gemstack-harness--put 'servers (vconcat (mapcar #'jsonrpc-name servers)))
      (eglot-shutdown-all)
      (gemstack-harness--put 'server_stderr
                             (mapconcat (lambda (b) (if (buffer-live-p b)
                                                        (with-current-buffer b (buffer-substring-no-properties
                                                                                (point-min) (point-max)))
                                                      ""))
                                        stderr "")))))

(let ((code 0))
  (condition-case err
      (progn (gemstack-harness--scenario)
             (when (alist-get 'timeouts gemstack-harness-R) (setq code 1)))
    (error (gemstack-harness--put 'error (error-message-string err)) (setq code 2)))
  (gemstack-harness--put 'messages
                         (with-current-buffer (messages-buffer)
                           (buffer-substring-no-properties (point-min) (point-max))))
  (gemstack-harness--put 'total_ms (gemstack-harness--ms))
  (gemstack-harness--write)
  (kill-emacs code))

;;; eglot_authoring.el ends here
