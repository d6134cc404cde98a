; Declarations and type usages of one Java file: what the code graph needs, run on every file indexed.
; Capture names are read by extract.py: "ref.<edge kind>" marks a slot that holds a type,
; whose head is a usage of that kind and whose generic arguments are type arguments.

(package_declaration [(identifier) (scoped_identifier)] @package)
(import_declaration) @import

(class_declaration) @type
(interface_declaration) @type
(enum_declaration) @type
(record_declaration) @type
(annotation_type_declaration) @type

(type_parameter . (type_identifier) @type_parameter)


(superclass (_) @ref.extends)
(extends_interfaces (type_list (_) @ref.extends))
(super_interfaces (type_list (_) @ref.implements))
(field_declaration type: (_) @ref.field)
(constant_declaration type: (_) @ref.field)
(record_declaration parameters: (formal_parameters (formal_parameter type: (_) @ref.field)))
(constructor_declaration parameters: (formal_parameters (formal_parameter type: (_) @ref.constructor_parameter)))
(constructor_declaration parameters: (formal_parameters (spread_parameter [(type_identifier) (generic_type) (scoped_type_identifier) (array_type)] @ref.constructor_parameter)))
(method_declaration parameters: (formal_parameters (formal_parameter type: (_) @ref.method_parameter)))
(method_declaration parameters: (formal_parameters (spread_parameter [(type_identifier) (generic_type) (scoped_type_identifier) (array_type)] @ref.method_parameter)))
(method_declaration type: (_) @ref.return)
(annotation_type_element_declaration type: (_) @ref.return)
(local_variable_declaration type: (_) @ref.local_variable)
(enhanced_for_statement type: (_) @ref.local_variable)
(resource type: (_) @ref.local_variable)
(lambda_expression parameters: (formal_parameters (formal_parameter type: (_) @ref.local_variable)))
(instanceof_expression right: (_) @ref.instanceof)
(record_pattern . [(identifier) (generic_type) (scoped_type_identifier)] @ref.instanceof)
(object_creation_expression type: (_) @ref.instantiation)
(array_creation_expression type: (_) @ref.instantiation)
(method_reference . (array_type) @ref.instantiation)
(throws (_) @ref.throws)
(catch_type (_) @ref.catches)
(cast_expression type: (_) @ref.cast)
(class_literal (_) @ref.class_literal)
(annotation name: (_) @ref.annotation)
(marker_annotation name: (_) @ref.annotation)
(type_bound (_) @ref.type_argument)
(method_invocation type_arguments: (type_arguments (_) @ref.type_argument))
(method_invocation object: [(identifier) (field_access)] @ref.static_call)
(method_reference . [(identifier) (field_access) (type_identifier) (scoped_type_identifier) (generic_type)] @ref.static_call)
(field_access object: [(identifier) (field_access)] @ref.static_field)
