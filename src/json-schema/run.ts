import { ValidationAborted } from "./aborted.js";
import { childPath, type InstancePath } from "./instance-path.js";
import type { Issue, IssueDetails } from "./issues.js";
import { chooseUnionIssues } from "./unions.js";

export interface RunLimits {
  readonly maxDepth: number;
  /** Schema evaluations any run may make. */
  readonly steps: number;
  /** More evaluations, sized to the data; only asked for (it walks the data) once `steps` ran out. */
  readonly moreSteps: () => number;
  /** The schema has `unevaluated*` keywords, so every subschema records what it evaluated. */
  readonly tracksEvaluation: boolean;
}

/** The mutable state of one `validate` call. */
export class ValidationRun {
  /** Every issue reported at the top level of the run. */
  readonly collected: Issue[] = [];
  /** Where issues go now: a union branch's own list, or `undefined` while a subschema is only asked "valid or not". */
  issues: Issue[] | undefined = this.collected;
  readonly maxDepth: number;
  readonly tracksEvaluation: boolean;
  #stepsLeft: number;
  #moreSteps: (() => number) | undefined;
  #refLocation: InstancePath | undefined;
  #refHops = 0;

  constructor(limits: RunLimits) {
    this.maxDepth = limits.maxDepth;
    this.tracksEvaluation = limits.tracksEvaluation;
    this.#stepsLeft = limits.steps;
    this.#moreSteps = limits.moreSteps;
  }

  get collecting(): boolean {
    return this.issues !== undefined;
  }

  /** Records an issue (its text is only built when someone will read it); always false. */
  fail(at: InstancePath, describe: () => string | IssueDetails): false {
    if (this.issues === undefined) return false;
    const details = describe();
    this.issues.push(typeof details === "string" ? { at, message: details } : { at, ...details });
    return false;
  }

  /** Reports why no branch of a union matched; always false. */
  failUnion(at: InstancePath, branches: readonly (readonly Issue[])[]): false {
    if (this.issues === undefined) return false;
    for (const issue of chooseUnionIssues(at, branches)) this.issues.push(issue);
    return false;
  }

  /** Counts one schema evaluation against the budget that keeps hostile schemas from running forever. */
  spend(): void {
    if (--this.#stepsLeft >= 0) return;
    this.#stepsLeft += this.#moreSteps?.() ?? 0;
    this.#moreSteps = undefined;
    if (this.#stepsLeft < 0)
      throw new ValidationAborted("validation stopped: the schema needs too much work for this data (is it exponential?)");
  }

  /** The location of a child value, refused beyond `maxDepth`. */
  child(at: InstancePath, key: string | number): InstancePath {
    const path = childPath(at, key);
    if (path.depth > this.maxDepth) throw new ValidationAborted(`nested deeper than ${this.maxDepth} levels`, path);
    return path;
  }

  /** Follows a `$ref`, refusing a chain of more than `maxDepth` of them that never descends into the data. */
  followRef(at: InstancePath, ref: string, validate: () => boolean): boolean {
    const refLocation = this.#refLocation;
    const refHops = this.#refHops;
    this.#refHops = refLocation === at ? refHops + 1 : 1;
    this.#refLocation = at;
    if (this.#refHops > this.maxDepth) {
      throw new ValidationAborted(`$ref "${ref}" recursed more than ${this.maxDepth} times without descending into the data`, at);
    }
    const valid = validate();
    this.#refLocation = refLocation;
    this.#refHops = refHops;
    return valid;
  }
}
