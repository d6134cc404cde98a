"""Java analysis: tree-sitter parsing into ClassInfo, the incremental CodeGraph, impact and test context, and the
one parser and editor of test-class source."""

from __future__ import annotations

from junitbot.analysis.changes import GitCheckout, open_checkout
from junitbot.analysis.export import GraphDocument, GraphNode, graph_document, to_dot, to_graphml
from junitbot.analysis.extract import extract_file
from junitbot.analysis.graph import CodeGraph, GraphUnavailable, TypeRow
from junitbot.analysis.impact import DependencyAnalyzer
from junitbot.analysis.indexer import ProgressCallback, update_graph
from junitbot.analysis.jdk import jdk_fqn
from junitbot.analysis.models import (
    LIFECYCLE_ANNOTATIONS,
    TEST_ANNOTATIONS,
    AnnotationInfo,
    BuilderInfo,
    CallSite,
    ChangeSet,
    ClassInfo,
    ClassMember,
    Collaborator,
    ComparedLiteral,
    Edge,
    EdgeKind,
    FieldInfo,
    FileFacts,
    ImpactedClass,
    ImpactReport,
    IndexSummary,
    JavaImport,
    JavaTestClass,
    MemberKind,
    MethodInfo,
    ParameterInfo,
    ParseProblem,
    PathStep,
    Span,
    TestContext,
    TypeKind,
    TypeRef,
    ValueType,
)
from junitbot.analysis.naming import class_named_by_test
from junitbot.analysis.outline import type_declaration, type_outline
from junitbot.analysis.parser import (
    Node,
    Tree,
    node_text,
    package_query,
    parse_java,
    query_captures,
    syntax_errors,
)
from junitbot.analysis.resolve import resolve_classes, resolve_edges, resolve_supertypes
from junitbot.analysis.source import SourceText
from junitbot.analysis.sources import matches_any, module_of
from junitbot.analysis.testclass import (
    add_imports,
    insert_members,
    member_node,
    parse_test_class,
    parse_test_class_tree,
    remove_imports,
    remove_methods,
    rename_class,
)
from junitbot.analysis.typeref import type_ref
from junitbot.analysis.unused import remove_unused_imports, remove_unused_private_members, unused_imports

__all__ = [
    "LIFECYCLE_ANNOTATIONS",
    "TEST_ANNOTATIONS",
    "AnnotationInfo",
    "BuilderInfo",
    "CallSite",
    "ChangeSet",
    "ClassInfo",
    "ClassMember",
    "CodeGraph",
    "Collaborator",
    "ComparedLiteral",
    "DependencyAnalyzer",
    "Edge",
    "EdgeKind",
    "FieldInfo",
    "FileFacts",
    "GitCheckout",
    "GraphDocument",
    "GraphNode",
    "GraphUnavailable",
    "ImpactReport",
    "ImpactedClass",
    "IndexSummary",
    "JavaImport",
    "JavaTestClass",
    "MemberKind",
    "MethodInfo",
    "Node",
    "ParameterInfo",
    "ParseProblem",
    "PathStep",
    "ProgressCallback",
    "SourceText",
    "Span",
    "TestContext",
    "Tree",
    "TypeKind",
    "TypeRef",
    "TypeRow",
    "ValueType",
    "add_imports",
    "class_named_by_test",
    "extract_file",
    "graph_document",
    "insert_members",
    "jdk_fqn",
    "matches_any",
    "member_node",
    "module_of",
    "node_text",
    "open_checkout",
    "package_query",
    "parse_java",
    "parse_test_class",
    "parse_test_class_tree",
    "query_captures",
    "remove_imports",
    "remove_methods",
    "remove_unused_imports",
    "remove_unused_private_members",
    "rename_class",
    "resolve_classes",
    "resolve_edges",
    "resolve_supertypes",
    "syntax_errors",
    "to_dot",
    "to_graphml",
    "type_declaration",
    "type_outline",
    "type_ref",
    "unused_imports",
    "update_graph",
]
