// Lint rules of this project (an oxlint JS plugin): shapes that V8 builds on its slow path.
const noObjectAccessor = {
  meta: { type: "problem", docs: { description: "no get/set accessor in an object literal" } },
  create(context) {
    return {
      Property(node) {
        if ((node.kind === "get" || node.kind === "set") && node.parent?.type === "ObjectExpression") {
          context.report({
            node,
            message:
              "An object literal with an accessor is built on V8's slow path, and on Node 20 its shape keeps what it references " +
              "alive through young-generation GCs: use a class (its accessors live on the prototype).",
          });
        }
      },
    };
  },
};

export default { meta: { name: "suave" }, rules: { "no-object-accessor": noObjectAccessor } };
