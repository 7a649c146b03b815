// The data types a server sends, in an older revision's form: content blocks, tools, resources,
// templates, prompts and the server's own info. Each function returns its input itself when the
// revision needs no change, and otherwise a copy of only the objects it changes.
import { isJsonObject } from "../types/objects.js";
import type { Revision } from "./revision-features.js";
import { withFields } from "../types/objects.js";

export type Obj = Readonly<Record<string, unknown>>;

export const isObj: (value: unknown) => value is Obj = isJsonObject;

/** `object` without `keys`: the object itself when it has none of them. */
export function without(object: Obj, keys: readonly string[]): Obj {
  if (!keys.some((key) => key in object)) return object;
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}

/** `items` mapped: the array itself when every item maps to itself. */
function mapSame(items: readonly unknown[], map: (item: Obj) => unknown): readonly unknown[] {
  let copy: unknown[] | undefined;
  items.forEach((item, index) => {
    const mapped = isObj(item) ? map(item) : item;
    if (mapped !== item) (copy ??= [...items])[index] = mapped;
  });
  return copy ?? items;
}

/** `object` with the array at `key` mapped (see `mapSame`). */
export function mapField(object: Obj, key: string, map: (item: Obj) => unknown): Obj {
  const items = object[key];
  if (!Array.isArray(items)) return object;
  const mapped = mapSame(items, map);
  return mapped === items ? object : withFields(object, { [key]: mapped });
}

/** `object` with the object at `key` replaced by `map(it)`. */
function mapObject(object: Obj, key: string, map: (value: Obj) => Obj): Obj {
  const value = object[key];
  if (!isObj(value)) return object;
  const mapped = map(value);
  return mapped === value ? object : withFields(object, { [key]: mapped });
}

/** `annotations.lastModified` arrived with 2025-06-18; audience and priority are in every revision. */
function withAnnotations(revision: Revision, item: Obj): Obj {
  return revision.has.lastModified ? item : mapObject(item, "annotations", (annotations) => without(annotations, ["lastModified"]));
}

/** A text block in place of one the revision lacks, keeping the original's annotations. */
function textBlock(revision: Revision, text: string, original: Obj): Obj {
  return withAnnotations(
    revision,
    isObj(original["annotations"]) ? { type: "text", text, annotations: original["annotations"] } : { type: "text", text },
  );
}

/** Before 2025-06-18 a resource's `name` was its display name: a title takes its place there. */
function withTitleAsName(revision: Revision, item: Obj): Obj {
  const title = item["title"];
  return revision.has.titles || typeof title !== "string" ? item : withFields(item, { name: title });
}

/** A resource or a resource template of `resources/list` / `resources/templates/list`. */
export function resourceFor(revision: Revision, resource: Obj): Obj {
  return withAnnotations(revision, without(withTitleAsName(revision, resource), revision.itemKeys));
}

/** A resource link names a resource without its contents; a text block naming it says the same. */
function linkAsText(revision: Revision, link: Obj): Obj {
  const name = typeof link["title"] === "string" ? link["title"] : String(link["name"]);
  const mimeType = typeof link["mimeType"] === "string" ? ` (${link["mimeType"]})` : "";
  const description = typeof link["description"] === "string" ? `: ${link["description"]}` : "";
  return textBlock(revision, `Resource ${JSON.stringify(name)} at ${String(link["uri"])}${mimeType}${description}`, link);
}

/** Audio cannot be carried before 2025-03-26: the reader learns that there was some. */
function audioAsText(revision: Revision, audio: Obj): Obj {
  return textBlock(
    revision,
    `Audio (${String(audio["mimeType"])}) left out: protocol revision ${revision.version} cannot carry audio`,
    audio,
  );
}

/** A block of `tools/call` content, of a prompt message or of a sampling message. */
export function blockFor(revision: Revision, block: Obj): Obj {
  switch (block["type"]) {
    case "resource_link":
      return revision.has.resourceLinks ? resourceFor(revision, block) : linkAsText(revision, block);
    case "audio":
      if (!revision.has.audio) return audioAsText(revision, block);
      break;
    case "resource":
      return withAnnotations(
        revision,
        without(
          mapObject(block, "resource", (contents) => without(contents, revision.blockKeys)),
          revision.blockKeys,
        ),
      );
  }
  return withAnnotations(revision, without(block, revision.blockKeys));
}

/** A tool of `tools/list`. */
export function toolFor(revision: Revision, tool: Obj): Obj {
  const kept = without(tool, revision.toolKeys);
  const title = tool["title"];
  // 2025-03-26 has no `title` on a tool, but its tool annotations carry one.
  if (!revision.has.toolAnnotations || revision.has.titles || typeof title !== "string") return kept;
  const annotations = isObj(tool["annotations"]) ? tool["annotations"] : {};
  return annotations["title"] === undefined ? withFields(kept, { annotations: withFields(annotations, { title }) }) : kept;
}

/** A prompt of `prompts/list`: its arguments lose their titles with it. */
export function promptFor(revision: Revision, prompt: Obj): Obj {
  const kept = without(prompt, revision.itemKeys);
  return revision.has.titles ? kept : mapField(kept, "arguments", (argument) => without(argument, ["title"]));
}

/** A `tools/call` result: its blocks, and structured content where the revision has none. */
export function toolResultFor(revision: Revision, result: Obj): Obj {
  const blocks = mapField(result, "content", (block) => blockFor(revision, block));
  return revision.has.structuredOutput || !("structuredContent" in blocks) ? blocks : structuredAsText(blocks);
}

/**
 * Without `structuredContent`, its JSON must be in `content` (the spec asks tools to send both):
 * a text block holding it is added unless one already does.
 */
function structuredAsText(result: Obj): Obj {
  const { structuredContent, ...rest } = result;
  if (structuredContent === undefined) return rest;
  const json = JSON.stringify(structuredContent);
  const content = Array.isArray(rest["content"]) ? (rest["content"] as unknown[]) : [];
  const mirrored = content.some((block) => isObj(block) && block["type"] === "text" && block["text"] === json);
  return mirrored ? rest : withFields(rest, { content: [...content, { type: "text", text: json }] });
}

/** The server's `Implementation` in `initialize`. */
export function implementationFor(revision: Revision, implementation: Obj): Obj {
  return without(implementation, revision.implementationKeys);
}
