"""Java analysis: tree-sitter parsing into ClassInfo, the incremental CodeGraph, impact and test context."""

from __future__ import annotations

from junitbot.analysis.changes import GitCheckout, open_checkout
from junitbot.analysis.export import GraphDocument, GraphNode, graph_document, to_dot, to_graphml
from junitbot.analysis.extract import extract_file
from junitbot.analysis.graph import CodeGraph, GraphUnavailable
from junitbot.analysis.impact import DependencyAnalyzer
from junitbot.analysis.indexer import ProgressCallback, update_graph
from junitbot.analysis.jdk import jdk_fqn
from junitbot.analysis.models import (
    AnnotationInfo,
    BuilderInfo,
    CallSite,
    ChangeSet,
    ClassInfo,
    Collaborator,
    ComparedLiteral,
    Edge,
    EdgeKind,
    FieldInfo,
    FileFacts,
    ImpactedClass,
    ImpactReport,
    IndexSummary,
    MethodInfo,
    ParameterInfo,
    ParseProblem,
    PathStep,
    TestContext,
    TypeKind,
    TypeRef,
    ValueType,
)
from junitbot.analysis.naming import class_named_by_test
from junitbot.analysis.outline import type_declaration, type_outline
from junitbot.analysis.parser import Node, Tree, package_query, parse_java, query_captures, syntax_errors
from junitbot.analysis.resolve import resolve_classes, resolve_edges, resolve_supertypes
from junitbot.analysis.source import SourceText
from junitbot.analysis.sources import matches_any
from junitbot.analysis.typeref import type_ref

__all__ = [
    "AnnotationInfo",
    "BuilderInfo",
    "CallSite",
    "ChangeSet",
    "ClassInfo",
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
    "MethodInfo",
    "Node",
    "ParameterInfo",
    "ParseProblem",
    "PathStep",
    "ProgressCallback",
    "SourceText",
    "TestContext",
    "Tree",
    "TypeKind",
    "TypeRef",
    "ValueType",
    "class_named_by_test",
    "extract_file",
    "graph_document",
    "jdk_fqn",
    "matches_any",
    "open_checkout",
    "package_query",
    "parse_java",
    "query_captures",
    "resolve_classes",
    "resolve_edges",
    "resolve_supertypes",
    "syntax_errors",
    "to_dot",
    "to_graphml",
    "type_declaration",
    "type_outline",
    "type_ref",
    "update_graph",
]
