import { describeName } from "./json-values.js";

/** Where a value sits inside the validated data: a linked list, so descending costs one object. */
export interface InstancePath {
  readonly parent: InstancePath | undefined;
  readonly key: string | number;
  readonly depth: number;
}

export const ROOT_PATH: InstancePath = { parent: undefined, key: "", depth: 0 };

export function childPath(parent: InstancePath, key: string | number): InstancePath {
  return { parent, key, depth: parent.depth + 1 };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `items[2].name`, prefixed with `rootLabel` (`structuredContent.items[2].name`) when one is given. */
export function formatInstancePath(path: InstancePath, rootLabel = ""): string {
  const keys: (string | number)[] = [];
  for (let node = path; node.parent !== undefined; node = node.parent) keys.push(node.key);
  let text = rootLabel;
  for (const key of keys.toReversed()) text += formatSegment(key, text === "");
  return text;
}

function formatSegment(key: string | number, first: boolean): string {
  if (typeof key === "number") return `[${key}]`;
  if (!IDENTIFIER.test(key)) return `[${describeName(key)}]`;
  return first ? key : `.${key}`;
}

/** `path: message`, or the bare message for the root of an unlabelled value. */
export function formatLocated(path: InstancePath, message: string, rootLabel?: string): string {
  const where = formatInstancePath(path, rootLabel);
  return where === "" ? message : `${where}: ${message}`;
}
