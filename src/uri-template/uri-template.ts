import { MCPError, MCP_CODES } from "../error-codes/index.js";
import { expandTemplate } from "./expand.js";
import { containsExpression, parseTemplate, type TemplatePart } from "./template-parser.js";
import { splitUri } from "./uri-splitter.js";
import { extractVariables } from "./variable-extraction.js";
import type { UriVariableValue, UriVariables } from "./variables.js";

export type { UriExpansionValue, UriScalar, UriVariableValue, UriVariables } from "./variables.js";

/** The longest template `UriTemplate.parse` accepts unless told otherwise (8 KiB). */
export const DEFAULT_MAX_TEMPLATE_LENGTH = 8 * 1024;
/** The longest URI `match` looks at unless told otherwise (64 KiB); longer ones do not match. */
export const DEFAULT_MAX_URI_LENGTH = 64 * 1024;

export interface UriTemplateOptions {
  /** Longer templates are refused by `parse` (default `DEFAULT_MAX_TEMPLATE_LENGTH`). */
  readonly maxTemplateLength?: number;
  /** `match` returns `undefined` for longer URIs without reading them (default `DEFAULT_MAX_URI_LENGTH`). */
  readonly maxUriLength?: number;
}

/** An RFC 6570 URI template (levels 1 to 4): expands variables into a URI, and matches a URI back. */
export class UriTemplate {
  readonly template: string;
  /** The variables of the template, in order of first appearance, each once. */
  readonly variableNames: readonly string[];
  readonly #parts: readonly TemplatePart[];
  readonly #maxUriLength: number;

  private constructor(template: string, parts: readonly TemplatePart[], maxUriLength: number) {
    this.template = template;
    this.#parts = parts;
    this.variableNames = Object.freeze([
      ...new Set(parts.flatMap((part) => (typeof part === "string" ? [] : part.variables.map((spec) => spec.name)))),
    ]);
    this.#maxUriLength = maxUriLength;
  }

  /** Parses a template; throws an `MCPError` (INVALID_PARAMS) saying what is wrong and where. */
  static parse(template: string, options: UriTemplateOptions = {}): UriTemplate {
    return new UriTemplate(template, parseLimited(template, options), options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH);
  }

  /** Whether the text contains at least one well-formed expression, i.e. is a template rather than a URI. */
  static isTemplate(text: string): boolean {
    return containsExpression(text);
  }

  /**
   * RFC 6570 §3.2 expansion (level 4: strings, numbers, booleans, lists, associative arrays).
   * Throws an INVALID_PARAMS `MCPError` naming the variable for a value it cannot expand, and for a
   * prefix modifier on a list or an associative array.
   */
  expand(variables: UriVariables): string {
    return expandTemplate(this.#parts, variables);
  }

  /**
   * The variables whose expansion gives this URI, percent-decoded, except that `{+var}` and `{#var}`
   * keep triplets of reserved characters as sent (`a%2Fb` stays distinct from `a/b`); `undefined` when
   * the URI does not fit the template, is longer than `maxUriLength`, or holds malformed
   * percent-encoding. The values are untrusted input: they may hold `..`, `/` or `%2F`.
   */
  match(uri: string): Record<string, UriVariableValue> | undefined {
    return matchParts(this.#parts, uri, this.#maxUriLength);
  }

  toString(): string {
    return this.template;
  }
}

/** What code that only matches URIs needs of a template (the server's resource templates): a `UriTemplate` is one. */
export type UriTemplateMatcher = Pick<UriTemplate, "template" | "match">;

/**
 * `UriTemplate.parse(template)` for code that never expands: the same checks and the same `match`,
 * without `UriTemplate`'s expansion code, which a bundler then leaves out of an app that does not
 * import `UriTemplate` itself.
 */
export function parseUriTemplateMatcher(template: string): UriTemplateMatcher {
  const parts = parseLimited(template, {});
  return { template, match: (uri) => matchParts(parts, uri, DEFAULT_MAX_URI_LENGTH) };
}

function parseLimited(template: string, { maxTemplateLength = DEFAULT_MAX_TEMPLATE_LENGTH }: UriTemplateOptions): readonly TemplatePart[] {
  if (template.length > maxTemplateLength) {
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `URI template is ${template.length} characters long, over the limit of ${maxTemplateLength}`,
      { data: { length: template.length, maxTemplateLength } },
    );
  }
  return parseTemplate(template);
}

function matchParts(parts: readonly TemplatePart[], uri: string, maxUriLength: number): Record<string, UriVariableValue> | undefined {
  if (uri.length > maxUriLength) return undefined;
  const starts = splitUri(parts, uri);
  return starts === undefined ? undefined : extractVariables(parts, uri, starts);
}
