/** The part of an oxlint rule context the layout rules use. */
export interface LayoutContext {
  readonly options: readonly unknown[];
  readonly sourceCode: { readonly lines: readonly string[] };
  report(diagnostic: { loc: { start: { line: number; column: number }; end: { line: number; column: number } }; message: string }): void;
}

export interface LayoutRule {
  readonly meta: { readonly type: string; readonly docs: { readonly description: string }; readonly schema: readonly object[] };
  create(context: LayoutContext): { Program(): void };
}

/** The project's layout rules, as .oxlintrc.json loads them (`suave-layout/<rule>`). */
declare const plugin: { readonly meta: { readonly name: string }; readonly rules: { readonly "max-line-length": LayoutRule } };
export default plugin;
