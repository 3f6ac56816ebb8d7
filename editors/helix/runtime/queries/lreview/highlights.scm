; Diff colours for the patch lines of a review exchange file, on top of
; the JSON highlights. A patch element is a JSON string whose content
; starts with the diff line's marker; Helix has no semantic tokens, so the
; marker decides. Earlier patterns win in Helix, so these come first.

((string (string_content) @diff.plus)
  (#match? @diff.plus "^\\+[^+]"))
((string (string_content) @diff.minus)
  (#match? @diff.minus "^-[^-]"))
((string (string_content) @markup.heading)
  (#match? @markup.heading "^(@@ |diff --git |--- |\\+\\+\\+ )"))

; inherits: json
