; What a file with static imports needs to tell which unqualified calls use them.

(method_invocation !object) @call
(method_declaration) @method
