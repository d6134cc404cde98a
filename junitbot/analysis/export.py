"""The whole graph as a node-link document, and as Graphviz DOT or GraphML for people's tools (pure)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from junitbot.analysis.graph import CodeGraph
from junitbot.analysis.models import Edge
from junitbot.records import Record


class GraphNode(Record):
    fqn: str
    name: str
    kind: str
    layer: str | None
    file: str
    line: int
    outer: str | None
    is_test: bool


class GraphDocument(Record):
    """Node-link JSON: sorted, with repo-relative paths, so two graphs of one commit compare equal as text."""

    commit: str | None
    nodes: tuple[GraphNode, ...]
    edges: tuple[Edge, ...]


def graph_document(graph: CodeGraph) -> GraphDocument:
    nodes = tuple(
        GraphNode(fqn=row.fqn, name=row.name, kind=row.kind, layer=row.layer, file=row.path, line=row.line,
                  outer=row.outer, is_test=row.is_test)
        for row in graph.types()
    )
    return GraphDocument(commit=graph.commit, nodes=nodes, edges=tuple(graph.edges()))


def to_dot(document: GraphDocument) -> str:
    """Graphviz: one node per type (shape by kind), one edge per (source, target) labelled with its kinds."""
    shapes = {"interface": "ellipse", "enum": "hexagon", "record": "box3d", "annotation": "note"}
    lines = ["digraph junitbot {", "  rankdir=LR;", '  node [shape=box, fontname="Helvetica"];']
    for node in document.nodes:
        style = ', style=dashed' if node.is_test else ""
        label = f"{node.name}\\n{node.layer or ''}".rstrip("\\n")
        lines.append(f'  "{node.fqn}" [label="{label}", shape={shapes.get(node.kind, "box")}{style}];')
    labels: dict[tuple[str, str], list[str]] = {}
    for edge in document.edges:
        labels.setdefault((edge.source, edge.target), []).append(edge.kind.value)
    for (source, target), kinds in labels.items():
        lines.append(f'  "{source}" -> "{target}" [label="{",".join(kinds)}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_graphml(document: GraphDocument) -> str:
    """GraphML with the node attributes and edge kinds as typed keys (Gephi, yEd, networkx read it)."""
    root = ET.Element("graphml", xmlns="http://graphml.graphdrawing.org/xmlns")
    node_keys = ("name", "kind", "layer", "file", "line", "is_test")
    for key in node_keys:
        attr_type = "int" if key == "line" else "boolean" if key == "is_test" else "string"
        ET.SubElement(root, "key", {"id": key, "for": "node", "attr.name": key, "attr.type": attr_type})
    ET.SubElement(root, "key", {"id": "edge_kind", "for": "edge", "attr.name": "kind", "attr.type": "string"})
    graph = ET.SubElement(root, "graph", id="junitbot", edgedefault="directed")
    if document.commit:
        graph.set("commit", document.commit)
    for node in document.nodes:
        element = ET.SubElement(graph, "node", id=node.fqn)
        for key in node_keys:
            value = getattr(node, key)
            if value is not None:
                text = str(value).lower() if isinstance(value, bool) else str(value)
                ET.SubElement(element, "data", key=key).text = text
    for edge in document.edges:
        element = ET.SubElement(graph, "edge", source=edge.source, target=edge.target)
        ET.SubElement(element, "data", key="edge_kind").text = edge.kind.value
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
