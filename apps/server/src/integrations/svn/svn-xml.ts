import { xmldomLib } from '@release/inspect/lazy-require.ts';
import type { Element } from '@xmldom/xmldom';
import { SvnError } from './svn-command.ts';

export type SvnPathAction = 'A' | 'D' | 'M' | 'R';

export interface SvnChangedPath {
  /** Repository-absolute path, e.g. `/trunk/src/a.c`. */
  path: string;
  action: SvnPathAction;
  kind: 'file' | 'dir' | '';
  copyFromPath: string | null;
  copyFromRevision: number | null;
}

export interface SvnLogEntry {
  revision: number;
  /** Null when the revision has no (readable) svn:author. */
  author: string | null;
  /** Epoch ms; null when the revision has no (readable) svn:date. */
  date: number | null;
  message: string;
  paths: SvnChangedPath[];
}

export interface SvnInfo {
  /** The youngest revision of the repository (`entry/@revision` of a URL). */
  revision: number;
  /** The last revision that changed the target path. */
  lastChangedRevision: number;
  url: string;
  repositoryRoot: string;
  uuid: string;
}

const ELEMENT_NODE = 1;

function parseXml(xml: string, root: string): Element {
  let document;
  try {
    document = new (xmldomLib().DOMParser)({ onError: xmldomLib().onErrorStopParsing }).parseFromString(
      xml,
      'text/xml',
    );
  } catch (error) {
    throw new SvnError('bad_output', `invalid XML: ${String(error)}`);
  }
  const element = document.documentElement;
  if (!element || element.nodeName !== root) throw new SvnError('bad_output', `expected <${root}>`);
  return element;
}

function children(node: Element, name: string): Element[] {
  const found: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE && child.nodeName === name) found.push(child as Element);
  }
  return found;
}

function childText(node: Element, name: string): string | null {
  const [child] = children(node, name);
  return child ? (child.textContent ?? '') : null;
}

function revisionOf(value: string | null): number {
  const revision = Number(value);
  if (!Number.isSafeInteger(revision) || revision < 0)
    throw new SvnError('bad_output', `bad revision ${JSON.stringify(value)}`);
  return revision;
}

/** svn dates carry microseconds (`2026-11-22T01:53:14.201730Z`); keep milliseconds. */
export function parseSvnDate(value: string): number | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/.exec(value.trim());
  if (!match) return null;
  const millis = Date.parse(`${match[1]}.${(match[2] ?? '').padEnd(3, '0').slice(0, 3)}Z`);
  return Number.isNaN(millis) ? null : millis;
}

function toChangedPath(node: Element): SvnChangedPath {
  const action = node.getAttribute('action') ?? '';
  if (action !== 'A' && action !== 'D' && action !== 'M' && action !== 'R')
    throw new SvnError('bad_output', `bad path action ${action}`);
  const kind = node.getAttribute('kind') ?? '';
  const copyFromPath = node.getAttribute('copyfrom-path');
  const copyFromRevision = node.getAttribute('copyfrom-rev');
  return {
    path: node.textContent ?? '',
    action,
    kind: kind === 'file' || kind === 'dir' ? kind : '',
    copyFromPath: copyFromPath || null,
    copyFromRevision: copyFromRevision ? revisionOf(copyFromRevision) : null,
  };
}

/** Parses `svn log --xml [-v]` output; attributes are read by name since their order varies between entries. */
export function parseSvnLogXml(xml: string): SvnLogEntry[] {
  return children(parseXml(xml, 'log'), 'logentry').map((entry) => {
    const date = childText(entry, 'date');
    const [paths] = children(entry, 'paths');
    return {
      revision: revisionOf(entry.getAttribute('revision')),
      author: childText(entry, 'author'),
      date: date === null ? null : parseSvnDate(date),
      message: childText(entry, 'msg') ?? '',
      paths: paths ? children(paths, 'path').map(toChangedPath) : [],
    };
  });
}

/** Parses `svn info --xml URL` output (the first entry). */
export function parseSvnInfoXml(xml: string): SvnInfo {
  const [entry] = children(parseXml(xml, 'info'), 'entry');
  if (!entry) throw new SvnError('bad_output', 'svn info without entry');
  const [repository] = children(entry, 'repository');
  const [commit] = children(entry, 'commit');
  return {
    revision: revisionOf(entry.getAttribute('revision')),
    lastChangedRevision: commit ? revisionOf(commit.getAttribute('revision')) : 0,
    url: childText(entry, 'url') ?? '',
    repositoryRoot: repository ? (childText(repository, 'root') ?? '') : '',
    uuid: repository ? (childText(repository, 'uuid') ?? '') : '',
  };
}
