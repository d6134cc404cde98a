; Members and body facts of one Java file: what ClassInfo needs beyond the graph, run on demand.

(method_declaration) @method
(constructor_declaration) @method
(compact_constructor_declaration) @method

(method_invocation) @call
(binary_expression) @compare
(switch_label (_) @case_label)
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local))
(enhanced_for_statement name: (identifier) @local)
(object_creation_expression type: (_) @create)
(array_creation_expression type: (_) @create)
