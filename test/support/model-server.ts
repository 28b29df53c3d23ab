// Moved to @gleaner/testing (packages/testing); re-exported for the repository's tests.
export { startModelServer } from '@gleaner/testing';
export type {
  AnswerStep,
  ModelServer,
  ModelServerOptions,
  ModelRequest as RecordedRequest,
  Script,
  ScriptedModel,
  ScriptedToolCall,
  ScriptedUsage,
  Step,
  WireProtocol,
  WireAnswer,
} from '@gleaner/testing';
