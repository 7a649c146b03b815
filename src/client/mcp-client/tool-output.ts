// Checks a tool's structuredContent against the outputSchema the server listed for it.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { describeThrown, MCPError } from "../../error-codes/mcp-error.js";
import type { JsonSchemaOptions, JsonSchemaValidator } from "../../json-schema/index.js";
import type { CallToolResult, Tool } from "../../schemas/schemas.js";
import { loadedValidator, loadValidator, type JsonSchemaValidation } from "./validator-loader.js";

/** How output schemas are compiled, and where the client tells of one it cannot check. */
export interface OutputSchemaSettings {
  readonly options: JsonSchemaOptions;
  readonly unchecked: (subject: string, reason: string) => void;
}

/**
 * Knows every tool the client has listed. A tool it does not know is looked up in one full listing
 * (`listAll`, memoised by the caller until the next `tools/list_changed`, when `forget` is called).
 */
export class ToolOutputChecker {
  readonly #known = new Map<string, Tool>();
  readonly #compiled = new WeakMap<object, JsonSchemaValidator>();
  readonly #listAll: () => Promise<unknown>;
  readonly #settings: OutputSchemaSettings;

  constructor(listAll: () => Promise<unknown>, settings: OutputSchemaSettings) {
    this.#listAll = listAll;
    this.#settings = settings;
  }

  remember(tools: readonly Tool[]): void {
    for (const tool of tools) this.#known.set(tool.name, tool);
    // The validator starts loading with the first listing that needs it, so the first call rarely waits for it; a failed load is
    // reported by the check that needs it, not here.
    if (loadedValidator() === undefined && tools.some((tool) => tool.outputSchema)) void loadValidator().catch(() => undefined);
  }

  forget(): void {
    this.#known.clear();
  }

  /** A `tools/call` result, or the promise of it once checked (a round of input or a task passes: the tool's result comes after it). */
  checked(name: string, result: CallToolResult): CallToolResult | Promise<CallToolResult> {
    // Rounds of input are the stateless era's engine's to answer, tasks the client's to follow.
    if (!("content" in result)) return result;
    const listing = this.check(name, result);
    return listing ? listing.then(() => result) : result;
  }

  /** A tool as listed (the tools listed once when it is not known). */
  async tool(name: string): Promise<Tool | undefined> {
    if (!this.#known.has(name)) await this.#listAll();
    return this.#known.get(name);
  }

  /**
   * Throws (or, when the tool must be listed or the validator loaded first, rejects) with
   * `MCP.PROTOCOL_INVALID` when the result breaks the tool's outputSchema; `isError` results are not
   * checked. A tool already known is checked at once (the validator loaded), with no promise to wait for.
   */
  check(name: string, result: CallToolResult): Promise<void> | undefined {
    if (result.isError) return undefined;
    const known = this.#known.get(name);
    if (!known) return this.#listThenCheck(name, result);
    if (known.outputSchema === undefined) return undefined;
    const validation = loadedValidator();
    if (validation === undefined) return loadValidator().then((loaded) => this.#checkAgainst(name, known, result, loaded));
    this.#checkAgainst(name, known, result, validation);
    return undefined;
  }

  async #listThenCheck(name: string, result: CallToolResult): Promise<void> {
    const tool = await this.tool(name);
    if (tool?.outputSchema) this.#checkAgainst(name, tool, result, await loadValidator());
  }

  #checkAgainst(name: string, tool: Tool, result: CallToolResult, validation: JsonSchemaValidation): void {
    const schema = tool.outputSchema as object;
    if (result.structuredContent === undefined) {
      throw brokenPromise(`Tool ${name} declares an outputSchema but returned no structuredContent`, result);
    }
    const checked = this.#compile(name, schema, result, validation).validate(result.structuredContent, "structuredContent");
    if (!checked.ok)
      throw brokenPromise(`The structuredContent of tool ${name} does not match its outputSchema: ${checked.issues}`, result);
  }

  #compile(name: string, schema: object, result: CallToolResult, validation: JsonSchemaValidation): JsonSchemaValidator {
    return this.#compiled.get(schema) ?? this.#compileOnce(name, schema, result, validation);
  }

  #compileOnce(name: string, schema: object, result: CallToolResult, { compileJsonSchema }: JsonSchemaValidation): JsonSchemaValidator {
    const { options } = this.#settings;
    try {
      // A legal schema the validator cannot check (`$dynamicRef`, a document not given) fails no call:
      // results pass unchecked, told once per schema (unless the options say to refuse it).
      const compiled = compileJsonSchema(schema, { ...options, unsupported: options.unsupported ?? "skip" });
      if (compiled.unchecked !== undefined)
        this.#settings.unchecked(`the output schema of tool ${JSON.stringify(name)}`, compiled.unchecked);
      this.#compiled.set(schema, compiled);
      return compiled;
    } catch (error) {
      throw brokenPromise(`The outputSchema of tool ${name} cannot be used: ${describeThrown(error)}`, result, error);
    }
  }
}

function brokenPromise(message: string, result: CallToolResult, cause?: unknown): MCPError {
  return new MCPError(MCP_CODES.PROTOCOL_INVALID, message, { data: result, cause });
}
