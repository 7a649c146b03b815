export {
  DEFAULT_MAX_TEMPLATE_LENGTH,
  DEFAULT_MAX_URI_LENGTH,
  UriTemplate,
  type UriExpansionValue,
  type UriScalar,
  type UriTemplateOptions,
  type UriVariableValue,
  type UriVariables,
} from "./uri-template.js";
