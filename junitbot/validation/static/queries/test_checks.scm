; What the static passes read from one candidate test class (validation/static/facts.py parses it).
; Each capture name is a list of nodes in source order; the passes look at the nodes' own fields.

(package_declaration [(identifier) (scoped_identifier)] @package)
(import_declaration) @import
(program [(class_declaration) (interface_declaration) (enum_declaration) (record_declaration)
          (annotation_type_declaration)] @top_type)

(method_declaration) @method
(field_declaration) @field
(local_variable_declaration) @local
(enhanced_for_statement) @local
(formal_parameters (formal_parameter) @parameter)
(assignment_expression) @assignment

(method_invocation) @call
(object_creation_expression) @new
(marker_annotation) @annotation
(annotation) @annotation
(catch_clause) @catch
(class_literal) @class_literal

; Places where a variable is handed on as a value (not merely stubbed or verified).
(argument_list [(identifier) (field_access)] @value)
(variable_declarator value: [(identifier) (field_access)] @value)
(assignment_expression right: [(identifier) (field_access)] @value)
(return_statement [(identifier) (field_access)] @value)
(array_initializer [(identifier) (field_access)] @value)
(lambda_expression body: [(identifier) (field_access)] @value)
