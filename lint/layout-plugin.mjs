// Layout rules of this project (an oxlint JS plugin). Prettier wraps code at printWidth 140 but cannot break a string, a
// template literal, a regular expression or a comment: this rule catches what it leaves longer.
// Markdown is not linted (its tables are as wide as their widest cell), nor are generated files (.oxlintrc.json's overrides).
const DEFAULT_MAX = 140;

const maxLineLength = {
  meta: {
    type: "layout",
    docs: { description: `no line longer than ${DEFAULT_MAX} characters (prettier's printWidth)` },
    schema: [{ type: "integer", minimum: 1 }],
  },
  create(context) {
    const max = context.options[0] ?? DEFAULT_MAX;
    return {
      Program() {
        context.sourceCode.lines.forEach((line, index) => {
          if (line.length <= max) return;
          // Widths count code points, as an editor's column does: an emoji is one character, not the two UTF-16 units of `.length`.
          const characters = [...line];
          const width = characters.length;
          if (width <= max) return;
          // A loc's columns are UTF-16 offsets: the excess starts after the first `max` characters.
          const excess = characters.slice(0, max).join("").length;
          context.report({
            loc: { start: { line: index + 1, column: excess }, end: { line: index + 1, column: line.length } },
            message:
              `This line is ${width} characters long, over ${max}: split the string or template literal with +, ` +
              "build a long regular expression from parts, shorten a test title, or wrap the comment.",
          });
        });
      },
    };
  },
};

export default { meta: { name: "suave-layout" }, rules: { "max-line-length": maxLineLength } };
