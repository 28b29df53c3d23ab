// The request schemas live in core (the engine validates direct calls with them); re-exported for the routes.
export {
  COOKIES_SCHEMA,
  EXTRACT_ASYNC_BODY,
  EXTRACT_BODY,
  ID_PARAMS,
  MARKDOWN_BODY,
  PARSE_BODY,
  PROXY_COUNTRY_SCHEMA,
  RECORDS_RESPONSE,
  TASK_RESPONSE,
  URL_SCHEMA,
} from '@gleaner/core';
