// The params of the requests a server sends (`sampling/createMessage`, `elicitation/create`) in an
// older revision's form. Only revisions before 2025-11-25 get here, so tool use in sampling, tasks,
// URL mode and the richer form fields are always absent.
import { withFields } from "../types/objects.js";
import { blockFor, isObj, without, type Obj } from "./downgrade-items.js";
import { NOT_IN_REVISION, type Revision } from "./revision-features.js";

/** `items` flat-mapped: the array itself when every item maps to itself alone. */
function flatMapSame(items: readonly unknown[], map: (item: Obj) => Obj | readonly Obj[]): readonly unknown[] {
  const mapped = items.map((item) => (isObj(item) ? map(item) : item));
  if (mapped.every((result, index) => result === items[index])) return items;
  return mapped.flat();
}

/** A tool-use block as text: the model sees which tool was called with what. */
function toolUseAsText(block: Obj): Obj {
  return { type: "text", text: `Tool call ${String(block["name"])} (${String(block["id"])}) with input ${JSON.stringify(block["input"])}` };
}

/** A tool-result block as text: its structured content, else its blocks, as JSON. */
function toolResultAsText(block: Obj): Obj {
  const outcome = block["isError"] === true ? "failed" : "returned";
  return {
    type: "text",
    text: `Tool call ${String(block["toolUseId"])} ${outcome} ${JSON.stringify(block["structuredContent"] ?? block["content"])}`,
  };
}

function samplingBlockFor(revision: Revision, block: Obj): Obj {
  switch (block["type"]) {
    case "tool_use":
      return toolUseAsText(block);
    case "tool_result":
      return toolResultAsText(block);
  }
  return blockFor(revision, block);
}

/** One sampling message; several blocks in one message become consecutive messages of the same role. */
function samplingMessageFor(revision: Revision, message: Obj): Obj | readonly Obj[] {
  const kept = without(message, ["_meta"]);
  const content = kept["content"];
  if (Array.isArray(content))
    return content.map((block: unknown) => withFields(kept, { content: isObj(block) ? samplingBlockFor(revision, block) : block }));
  if (!isObj(content)) return kept;
  const block = samplingBlockFor(revision, content);
  return block === content ? kept : withFields(kept, { content: block });
}

/** `sampling/createMessage` params: no tools to offer, one block per message. */
export function samplingFor(revision: Revision, params: Obj): Obj {
  const kept = without(params, ["tools", "toolChoice", "task"]);
  const messages = kept["messages"];
  if (!Array.isArray(messages)) return kept;
  const mapped = flatMapSame(messages, (message) => samplingMessageFor(revision, message));
  return mapped === messages ? kept : withFields(kept, { messages: mapped });
}

/**
 * A form field in 2025-06-18's terms: defaults only on booleans, titled options as `enum` +
 * `enumNames`; a multi-select (an array field) has no form there and is left out (undefined).
 */
function fieldFor(field: Obj): Obj | undefined {
  if (field["type"] === "array") return undefined;
  const options = field["oneOf"];
  if (Array.isArray(options)) {
    const { oneOf: _options, default: _default, ...rest } = field;
    const titled = options.filter(isObj);
    return { ...rest, enum: titled.map((option) => option["const"]), enumNames: titled.map((option) => option["title"]) };
  }
  return field["type"] === "boolean" ? field : without(field, ["default"]);
}

/** A requested schema in 2025-06-18's terms; a field left out is no longer required either. */
function formFor(schema: Obj): Obj {
  const kept = without(schema, ["$schema"]);
  const properties = kept["properties"];
  if (!isObj(properties)) return kept;
  const fields = Object.entries(properties).map(([name, field]) => [name, isObj(field) ? fieldFor(field) : field] as const);
  if (fields.every(([name, field]) => field === properties[name])) return kept;
  const left = new Set(fields.filter(([, field]) => field === undefined).map(([name]) => name));
  const form = { ...kept, properties: Object.fromEntries(fields.filter(([name]) => !left.has(name))) };
  const required = kept["required"];
  return Array.isArray(required) ? { ...form, required: required.filter((name) => !left.has(name as string)) } : form;
}

/** `elicitation/create` params for 2025-06-18: form mode only. */
export function elicitationFor(params: Obj): Obj | typeof NOT_IN_REVISION {
  if (params["mode"] === "url") return NOT_IN_REVISION;
  const kept = without(params, ["mode", "task"]);
  const schema = kept["requestedSchema"];
  if (!isObj(schema)) return kept;
  const form = formFor(schema);
  return form === schema ? kept : withFields(kept, { requestedSchema: form });
}
