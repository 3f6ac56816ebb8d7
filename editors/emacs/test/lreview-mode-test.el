;;; lreview-mode-test.el --- End-to-end tests of lreview-mode in a real Emacs  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by test/run.sh in batch mode: emacs -q --batch -l this-file -f
;; ert-run-tests-batch-and-exit, with LREVIEW_LSP naming the server under
;; test.  The eglot test waits for events (the connection, the diagnostics,
;; the edit) by polling with `accept-process-output' under a timeout.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'eglot)
(require 'flymake)

(defconst lreview-test-dir (file-name-directory (or load-file-name buffer-file-name)))
(add-to-list 'load-path (expand-file-name ".." lreview-test-dir))
;; run.sh runs the suite twice: without the JSON grammar (js-json-mode is
;; the parent) and with it (json-ts-mode) in ~/.emacs.d/tree-sitter, where
;; Emacs looks by itself.
(defconst lreview-test-grammar
  (equal (getenv "LREVIEW_TEST_GRAMMAR") "json-ts"))
(require 'lreview-mode)

(defconst lreview-test-fixture
  (expand-file-name "../../vim/test/fixtures/drift.review.json" lreview-test-dir)
  "A review whose comment c1 says RIGHT 71 while its snippet is on RIGHT 72.")

(defconst lreview-test-timeout 20 "Seconds any wait may take.")

(defvar lreview-test--dirs nil "The temporary directories the tests made.")

(add-hook 'kill-emacs-hook
          (lambda () (dolist (dir lreview-test--dirs) (delete-directory dir t))))

(defun lreview-test-copy (name &optional content)
  "A fresh temporary file NAME holding CONTENT (default: the drift fixture).
Its directory is removed when Emacs exits."
  (let* ((dir (make-temp-file "lreview-test" t))
         (file (expand-file-name name dir)))
    (push dir lreview-test--dirs)
    (if content
        (with-temp-file file (insert content))
      (copy-file lreview-test-fixture file))
    file))

(defmacro lreview-test-wait (what &rest cond)
  "Poll COND, running process output and timers, until it holds; fail naming WHAT."
  (declare (indent 1))
  `(let ((deadline (+ (float-time) lreview-test-timeout)))
     (while (and (not (progn ,@cond)) (< (float-time) deadline))
       (accept-process-output nil 0.05))
     (should (progn ,@cond))
     (ignore ,what)))

(defun lreview-test-goto (text)
  "Move point to the start of the first occurrence of TEXT."
  (goto-char (point-min))
  (should (search-forward text nil t))
  (goto-char (match-beginning 0)))

(ert-deftest lreview-mode-by-name-and-content ()
  (let ((file (lreview-test-copy "x.review.json")))
    (with-current-buffer (find-file-noselect file)
      (should (eq major-mode 'lreview-mode))
      (should (derived-mode-p (if lreview-test-grammar 'json-ts-mode 'js-json-mode)))
      (when lreview-test-grammar
        (should (treesit-parser-list)))
      (kill-buffer)))
  (let ((file (lreview-test-copy "plain.json" "{\n  \"leanreview_review\": 1,\n  \"patch\": []\n}\n")))
    (with-current-buffer (find-file-noselect file)
      (should (eq major-mode 'lreview-mode))
      (kill-buffer)))
  (let ((file (lreview-test-copy "other.json" "{\"name\": \"x\", \"leanreview_review\": 1}\n")))
    (with-current-buffer (find-file-noselect file)
      (should-not (eq major-mode 'lreview-mode))
      (kill-buffer))))

(defconst lreview-test-diff-faces '(diff-added diff-removed diff-header diff-hunk-header diff-context))

(ert-deftest lreview-mode-diff-faces ()
  (with-current-buffer (find-file-noselect (lreview-test-copy "faces.review.json"))
    (font-lock-ensure)
    (dolist (case '(("diff --git a/internal" diff-header)
                    ("--- a/internal" diff-header)
                    ("+++ b/internal" diff-header)
                    ("@@ -70,5" diff-hunk-header)
                    ("-    result := calculate" diff-removed)
                    ("+    result, err := calculate" diff-added)
                    ("     defer cancel" nil)))
      (lreview-test-goto (concat "\"" (car case)))
      (forward-char 1)
      (let* ((face (get-text-property (point) 'face))
             (diff-face (car (memq (if (listp face) (car (seq-intersection face lreview-test-diff-faces)) face)
                                   lreview-test-diff-faces))))
        (should (equal (list (car case) diff-face) case))))
    ;; A comment's body is no diff line, whatever it starts with.
    (lreview-test-goto "\"`err` is assigned")
    (forward-char 1)
    (should-not (memq (get-text-property (point) 'face) lreview-test-diff-faces))
    (kill-buffer)))

(ert-deftest lreview-mode-server-missing ()
  (let ((lreview-server-command '("/nonexistent/lreview-lsp" "--stdio")))
    (let ((err (should-error (lreview-server-contact) :type 'user-error)))
      (should (string-match-p "was not found" (cadr err)))
      (should (string-match-p "go install \\./cmd/lreview-lsp" (cadr err)))
      (should (string-match-p "once the module is published" (cadr err))))))

(defun lreview-test-diagnostics (code)
  "Flymake diagnostics of the current buffer whose text names CODE."
  (cl-remove-if-not (lambda (d) (string-match-p (regexp-quote code) (flymake-diagnostic-text d)))
                    (flymake-diagnostics)))

(ert-deftest lreview-mode-eglot-drift-fix ()
  (let* ((lreview-server-command (list (getenv "LREVIEW_LSP") "--stdio"))
         (file (lreview-test-copy "drift.review.json"))
         (buf (find-file-noselect file))
         server)
    (should (getenv "LREVIEW_LSP"))
    (unwind-protect
        (with-current-buffer buf
          (should (eq major-mode 'lreview-mode))
          ;; What M-x eglot does: the contact comes from eglot-server-programs.
          (call-interactively #'eglot)
          (setq server (eglot-current-server))
          (should server)
          (lreview-test-wait "eglot connected" (jsonrpc-running-p server))
          (should (equal (plist-get (eglot--server-info server) :name) "lreview-lsp"))
          (should flymake-mode)
          ;; Flymake starts its backends from the command loop, which batch
          ;; mode lacks.
          (flymake-start)
          (lreview-test-wait "the drift diagnostic"
            (lreview-test-diagnostics "the snippet is not what RIGHT 71"))
          (let ((d (car (lreview-test-diagnostics "the snippet is not what RIGHT 71"))))
            (should (eq (flymake-diagnostic-type d) 'eglot-warning))
            (lreview-test-goto "\"result, err := calculate(input)\"")
            (should (= (flymake-diagnostic-beg d) (point)))
            (goto-char (1+ (point))))
          ;; M-x eglot-code-actions, then RET: the default is the
          ;; preferred action.
          (let (prompt default)
            (cl-letf (((symbol-function 'completing-read)
                       (lambda (p _coll &optional _pred _req _init _hist def &rest _)
                         (setq prompt p default def)
                         def))
                      (last-nonmenu-event ?\r))
              (call-interactively #'eglot-code-actions))
            (should (string-match-p "Re-anchor c1 to RIGHT 72" default))
            (should (string-match-p "Pick an action" prompt)))
          (lreview-test-wait "the re-anchored start_line"
            (save-excursion (goto-char (point-min)) (search-forward "\"start_line\": 72," nil t)))
          (should (= 1 (how-many "\"start_line\": 72," (point-min) (point-max))))
          (should (= 0 (how-many "\"start_line\": 71," (point-min) (point-max))))
          (save-buffer)
          (with-temp-buffer
            (insert-file-contents lreview-test-fixture)
            (goto-char (point-min))
            (search-forward "\"start_line\": 71,")
            (replace-match "\"start_line\": 72,")
            (should (equal (buffer-string)
                           (with-temp-buffer (insert-file-contents file) (buffer-string)))))
          (lreview-test-wait "the diagnostic gone after the fix"
            (null (lreview-test-diagnostics "the snippet is not what"))))
      (when server
        (let ((eglot-autoshutdown nil)) (ignore-errors (eglot-shutdown server))))
      (kill-buffer buf))))

;;; The review in the code

(defconst lreview-test-worktree-fixture
  (expand-file-name "../../vim/test/fixtures/worktree.review.json" lreview-test-dir)
  "A review of internal/api/handler.go: c1 on RIGHT 72-73, c2 on the removed LEFT 72.")

(defun lreview-test-repository ()
  "A repository holding reviews/handler.review.json, renamed to review
handler.py, and that file: return its root."
  (let* ((root (file-name-as-directory (make-temp-file "lreview-repo" t)))
         (review (with-temp-buffer
                   (insert-file-contents lreview-test-worktree-fixture)
                   (goto-char (point-min))
                   (while (search-forward "internal/api/handler.go" nil t)
                     (replace-match "internal/api/handler.py" t t))
                   (buffer-string))))
    (make-directory (expand-file-name ".git" root) t)
    (make-directory (expand-file-name "internal/api" root) t)
    (make-directory (expand-file-name "reviews" root) t)
    (with-temp-file (expand-file-name "reviews/handler.review.json" root) (insert review))
    (with-temp-file (expand-file-name "internal/api/handler.py" root)
      (insert "package api\n")
      (dotimes (i 68) (insert (format "// line %d\n" (+ i 2))))
      (insert "    ctx := context.Background()\n    defer cancel(ctx)\n    result, err := calculate(input)\n    _ = err // 🚀 later\n    return result, nil\n}\n"))
    root))

(ert-deftest lreview-source-comments ()
  "The README's block attaches a python buffer to lreview-lsp: the
review's comments are Flymake diagnostics on their line, and follow
typing above them."
  (let* ((lreview-server-command (list (getenv "LREVIEW_LSP") "--stdio"))
         (eglot-server-programs eglot-server-programs)
         (root (lreview-test-repository))
         (buf (find-file-noselect (expand-file-name "internal/api/handler.py" root)))
         server)
    (lreview-test-eval-all
     (lreview-test-readme-block ";; the review in the code: python buffers attached to lreview-lsp"))
    (unwind-protect
        (with-current-buffer buf
          (should (memq major-mode '(python-mode python-ts-mode)))
          (call-interactively #'eglot)
          (setq server (eglot-current-server))
          (lreview-test-wait "eglot connected" (and server (jsonrpc-running-p server)))
          (flymake-start)
          (lreview-test-wait "c1's diagnostic"
            (lreview-test-diagnostics "c1: Return the error"))
          (let ((d (car (lreview-test-diagnostics "c1: Return the error"))))
            (should (= (line-number-at-pos (flymake-diagnostic-beg d)) 72)))
          (goto-char (point-min))
          (forward-line 1)
          (insert "# a\n# b\n# c\n")
          ;; What eglot's idle timer and Flymake's command-loop hooks do,
          ;; which batch mode runs late or not at all.
          (eglot--signal-textDocument/didChange)
          (lreview-test-wait "c1's diagnostic three lines down"
            (flymake-start)
            (let ((d (car (lreview-test-diagnostics "c1: Return the error"))))
              (and d (= (line-number-at-pos (flymake-diagnostic-beg d)) 75)))))
      (when server
        (let ((eglot-autoshutdown nil)) (ignore-errors (eglot-shutdown server))))
      (with-current-buffer buf (set-buffer-modified-p nil))
      (kill-buffer buf))))

;;; A body edited as Markdown

(defconst lreview-test-body-json
  "\"Return the error 🚀.\\r\\n\\r\\n```suggestion\\r\\n\\t\\tline -= \\\"a\\\\b\\\"\\r\\n```\\r\\n\""
  "A body as the writer spells it: a suggestion block, tabs, quotes, a
backslash, an emoji and CRLF line ends.")

(ert-deftest lreview-mode-edit-body ()
  (let* ((lreview-server-command (list (getenv "LREVIEW_LSP") "--stdio"))
         (original (with-temp-buffer
                     (insert-file-contents lreview-test-fixture)
                     (goto-char (point-min))
                     (search-forward "\"body\": ")
                     (let ((start (point)))
                       (forward-sexp)
                       (delete-region start (point)))
                     (insert lreview-test-body-json)
                     (buffer-string)))
         (file (lreview-test-copy "body.review.json" original))
         (buf (find-file-noselect file))
         server body)
    (unwind-protect
        (with-current-buffer buf
          (call-interactively #'eglot)
          (setq server (eglot-current-server))
          (lreview-test-wait "eglot connected" (jsonrpc-running-p server))
          (lreview-test-goto "\"body\": ")
          (call-interactively #'lreview-edit-body)
          (setq body (current-buffer))
          (should (equal (buffer-string)
                         "Return the error 🚀.\r\n\r\n```suggestion\r\n\t\tline -= \"a\\b\"\r\n```\r\n"))
          ;; Saved unchanged: the review is as it was.
          (lreview-body-save)
          (should (equal (with-current-buffer buf (buffer-string)) original))
          ;; Another first line, written back as one JSON string.
          (goto-char (point-min))
          (delete-region (point) (line-end-position))
          (insert "Return the *error*.\r")
          (lreview-body-save)
          (lreview-test-wait "the new body in the review"
            (with-current-buffer buf
              (save-excursion (goto-char (point-min)) (search-forward "\"Return the *error*.\\r\\n" nil t))))
          ;; And back: byte for byte.
          (goto-char (point-min))
          (delete-region (point) (line-end-position))
          (insert "Return the error 🚀.\r")
          (lreview-body-save)
          (lreview-test-wait "the old first line back in the review"
            (with-current-buffer buf
              (save-excursion (goto-char (point-min)) (search-forward "\"Return the error 🚀.\\r\\n" nil t))))
          (should (equal (with-current-buffer buf (buffer-string)) original)))
      (when (buffer-live-p body) (kill-buffer body))
      (when server
        (let ((eglot-autoshutdown nil)) (ignore-errors (eglot-shutdown server))))
      (with-current-buffer buf (set-buffer-modified-p nil))
      (kill-buffer buf))))

;;; Reply as Markdown

(ert-deftest lreview-mode-reply-as-markdown ()
  "\"Reply to c1\" opens the new reply's body as Markdown (the client
side of lreview.showBody); saving it writes the text into the review as
one JSON string, escaped by the server."
  (let* ((lreview-server-command (list (getenv "LREVIEW_LSP") "--stdio"))
         (file (lreview-test-copy "reply.review.json"))
         (buf (find-file-noselect file))
         server body)
    (unwind-protect
        (with-current-buffer buf
          (call-interactively #'eglot)
          (setq server (eglot-current-server))
          (lreview-test-wait "eglot connected" (jsonrpc-running-p server))
          (lreview-test-goto "\"id\": \"c1\"")
          (cl-letf (((symbol-function 'completing-read)
                     (lambda (_p coll &rest _)
                       (let ((c (seq-find (lambda (c) (string-prefix-p "Reply to c1" (if (consp c) (car c) c)))
                                          (if (hash-table-p coll) (hash-table-keys coll) coll))))
                         (cond ((consp c) (car c))
                               (c)
                               (t (error "no Reply to c1 among %S" coll))))))
                    (last-nonmenu-event ?\r))
            (call-interactively #'eglot-code-actions))
          (lreview-test-wait "the reply's Markdown buffer"
            (setq body (seq-find (lambda (b) (string-match-p "\\`\\*lreview c1 reply [0-9]+\\*\\'" (buffer-name b)))
                                 (buffer-list))))
          (with-current-buffer body
            (should (equal (buffer-string) ""))
            (insert "Done: \"quoted\"\nand a second line.")
            (lreview-body-save))
          (lreview-test-wait "the reply in the review"
            (with-current-buffer buf
              (goto-char (point-min))
              (search-forward "\"body\": \"Done: \\\"quoted\\\"\\nand a second line.\"" nil t))))
      (when (buffer-live-p body) (kill-buffer body))
      (when server
        (let ((eglot-autoshutdown nil)) (ignore-errors (eglot-shutdown server))))
      (with-current-buffer buf (set-buffer-modified-p nil))
      (kill-buffer buf))))

;;; The README's install steps, as written

(defun lreview-test-readme-block (first-line)
  "The fenced elisp block of README.md whose first line is FIRST-LINE."
  (with-temp-buffer
    (insert-file-contents (expand-file-name "../README.md" lreview-test-dir))
    (goto-char (point-min))
    (let (found)
      (while (and (not found) (re-search-forward "^\\( *\\)```elisp\n" nil t))
        (let ((indent (match-string 1))
              (start (point)))
          (should (re-search-forward "^ *```$" nil t))
          (let ((lines (mapcar (lambda (l) (string-remove-prefix indent l))
                               (split-string (buffer-substring start (match-beginning 0)) "\n"))))
            (when (equal (car lines) first-line)
              (setq found (string-join lines "\n"))))))
      found)))

(defun lreview-test-eval-all (text)
  "Evaluate every form of TEXT in turn, as Emacs loads an init file."
  (with-temp-buffer
    (insert text)
    (goto-char (point-min))
    (let (form)
      (while (setq form (condition-case nil (read (current-buffer)) (end-of-file nil)))
        (eval form t)))))

(ert-deftest lreview-readme-init ()
  "README.md's init block in a HOME laid out as its steps say (run.sh):
the checkout in ~/src/lreview-lsp, the server in ~/go/bin, off PATH."
  (require 'treesit)
  (let ((init (lreview-test-readme-block ";; ~/.emacs.d/init.el"))
        (server-file (expand-file-name "~/go/bin/lreview-lsp"))
        (load-path load-path)
        (exec-path exec-path)
        (lreview-mode-hook lreview-mode-hook)
        (treesit-language-source-alist treesit-language-source-alist)
        (markdown (progn
                    ;; What Emacs does at startup and -Q skips: activate the
                    ;; installed packages, markdown-mode among them.
                    (package-activate-all)
                    (fboundp 'gfm-view-mode)))
        buf server)
    (should init)
    (should (file-executable-p server-file))
    (unless (or markdown (not (getenv "CI")))
      (ert-fail "markdown-mode is not installed (scripts/install-emacs installs it)"))
    (lreview-test-eval-all init)
    (should (string-prefix-p (expand-file-name "~/src/lreview-lsp/editors/emacs/")
                             (locate-library "lreview-mode")))
    (should (equal (executable-find "lreview-lsp") server-file))
    (let ((source (cadr (assq 'json treesit-language-source-alist))))
      (should (equal source "https://github.com/tree-sitter/tree-sitter-json")))
    (setq buf (find-file-noselect (lreview-test-copy "guide.review.json")))
    (unwind-protect
        (with-current-buffer buf
          (should (eq major-mode 'lreview-mode))
          ;; eglot-ensure connects when the command that opened the file
          ;; ends; batch mode has no command loop to run that hook.
          (run-hooks 'post-command-hook)
          (lreview-test-wait "eglot started by eglot-ensure"
            (setq server (eglot-current-server)))
          (lreview-test-wait "eglot connected" (jsonrpc-running-p server))
          (should (equal (car (process-command (jsonrpc--process server))) "lreview-lsp"))
          ;; Hover: eldoc asks when point rests (its idle timer does not run
          ;; in batch mode: called here), C-h . shows the whole of it.
          (lreview-test-goto "\"assistant\"")
          (forward-char 3)
          (should (eq (key-binding (kbd "C-h .")) #'eldoc-doc-buffer))
          ;; Eldoc keeps one buffer: drop what an earlier test left there.
          (when-let* ((old (ignore-errors (eldoc-doc-buffer)))) (kill-buffer old))
          (eldoc-print-current-symbol-info)
          (lreview-test-wait "the hover in eldoc's buffer"
            (ignore-errors
              (with-current-buffer (eldoc-doc-buffer)
                (string-match-p "calculate(input)" (buffer-string)))))
          (call-interactively (key-binding (kbd "C-h .")))
          (let ((doc (with-current-buffer (eldoc-doc-buffer) (buffer-string))))
            (should (get-buffer-window (eldoc-doc-buffer)))
            (should (string-match-p (regexp-quote "│     result, err := calculate(input)") doc))
            (when markdown
              ;; Rendered: the words without their Markdown marks.
              (should (string-match-p "Comment c1 by assistant" doc))
              (should-not (string-match-p "```\\|\\*\\*" doc)))))
      (when server
        (let ((eglot-autoshutdown nil)) (ignore-errors (eglot-shutdown server))))
      (kill-buffer buf))))

(ert-deftest lreview-readme-use-package ()
  "README.md's use-package block sets up what its plain init block does."
  (require 'treesit)
  (require 'use-package)
  (let ((init (lreview-test-readme-block ";; ~/.emacs.d/init.el, with use-package"))
        (load-path load-path)
        (exec-path exec-path)
        (lreview-mode-hook lreview-mode-hook)
        (treesit-language-source-alist treesit-language-source-alist))
    (should init)
    (lreview-test-eval-all init)
    (should (string-prefix-p (expand-file-name "~/src/lreview-lsp/editors/emacs/")
                             (locate-library "lreview-mode")))
    (should (memq #'eglot-ensure lreview-mode-hook))
    (should (equal (executable-find "lreview-lsp") (expand-file-name "~/go/bin/lreview-lsp")))
    (should (equal (cadr (assq 'json treesit-language-source-alist))
                   "https://github.com/tree-sitter/tree-sitter-json"))))

;;; lreview-mode-test.el ends here
