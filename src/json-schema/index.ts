export { applyDefaults } from "./defaults.js";
export {
  compileJsonSchema,
  type CompiledJsonSchema,
  type JsonSchema,
  type JsonSchemaOptions,
  type JsonSchemaValidator,
} from "./json-schema.js";
