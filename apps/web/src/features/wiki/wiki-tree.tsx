import { useEffect, useState } from 'react';
import { Empty, Spin, Tag, Tree, type TreeDataNode } from 'antd';
import type { WikiNode } from '@release/contract';
import { fetchWikiNodes } from '../../api/wiki.api.ts';
import { wikiText } from './wiki.strings.ts';

interface WikiTreeNode extends TreeDataNode {
  key: string;
  node: WikiNode;
  children?: WikiTreeNode[];
}

function toTreeNode(node: WikiNode): WikiTreeNode {
  return {
    key: node.nodeToken,
    node,
    isLeaf: !node.hasChild,
    title: (
      <span className="wiki-node" data-testid="wiki-node">
        <a
          href={node.url}
          target="_blank"
          rel="noreferrer"
          title={wikiText.openInLark}
          data-testid="wiki-node-link"
          onClick={(e) => e.stopPropagation()}
        >
          {node.title}
        </a>
        <Tag bordered={false} className="wiki-node-type">
          {wikiText.objTypes[node.objType] ?? node.objType}
        </Tag>
      </span>
    ),
  };
}

function withChildren(nodes: WikiTreeNode[], key: string, children: WikiTreeNode[]): WikiTreeNode[] {
  return nodes.map((n) =>
    n.key === key
      ? { ...n, children, isLeaf: children.length === 0 }
      : n.children
        ? { ...n, children: withChildren(n.children, key, children) }
        : n,
  );
}

/** A space's node tree; a node's children are read from Lark when it is expanded. */
export function WikiTree({ spaceId }: { spaceId: string }) {
  const [nodes, setNodes] = useState<WikiTreeNode[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    fetchWikiNodes(spaceId).then(
      (root) => live && setNodes(root.map(toTreeNode)),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [spaceId]);

  const loadChildren = async (treeNode: WikiTreeNode): Promise<void> => {
    if (treeNode.children) return;
    try {
      const children = (await fetchWikiNodes(spaceId, treeNode.key)).map(toTreeNode);
      setNodes((current) => (current ? withChildren(current, treeNode.key, children) : current));
    } catch {
      // The client already said why; the node simply stays closed.
    }
  };

  if (failed) return <Empty description={wikiText.loadFailed} />;
  if (!nodes) return <Spin style={{ display: 'block', margin: '32px auto' }} />;
  if (nodes.length === 0) return <Empty description={wikiText.emptySpace} />;
  return (
    <Tree<WikiTreeNode>
      treeData={nodes}
      loadData={loadChildren}
      blockNode
      selectable={false}
      className="wiki-tree"
      data-testid="wiki-tree"
    />
  );
}
