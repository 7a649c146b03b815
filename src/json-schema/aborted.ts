import type { InstancePath } from "./instance-path.js";

/**
 * Ends a validation run early: the data or the schema hit a limit (depth, `$ref` cycle, work
 * budget). It is thrown rather than reported so that no `not` or `anyOf` can turn it into a pass.
 */
export class ValidationAborted extends Error {
  readonly at: InstancePath | undefined;

  constructor(message: string, at?: InstancePath) {
    super(message);
    this.name = "ValidationAborted";
    this.at = at;
  }
}
