; Diff colours for the patch lines of a review exchange file, on top of
; the JSON highlights. A patch element is a JSON string whose text starts
; with the diff line's marker; Helix has no semantic tokens, so the marker
; decides. Only the `string` node is used (every version of the JSON
; grammar has it), matched with its opening quote. Helix gives the first
; matching pattern priority, so these come before the inherited ones, and
; file headers ("--- a/…") before removed lines.

((string) @markup.heading
  (#match? @markup.heading "^\"(@@ |diff --git |index |--- |\\+\\+\\+ )"))
((string) @diff.plus
  (#match? @diff.plus "^\"\\+"))
((string) @diff.minus
  (#match? @diff.minus "^\"-"))

; inherits: json
