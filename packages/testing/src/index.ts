// @gleaner/testing — the kit Gleaner's own plugins are tested with, for plugins written anywhere:
// the driver contract suite (with its SSRF table), the interaction suite, the model-provider contract
// suite, the loopback fixture site, a forward proxy, and the scripted model server that speaks the
// OpenAI and Ollama wire protocols (and any other a provider teaches it: `WireProtocol`).
// The suites register mocha `describe`/`it` blocks and assert with chai.

// Driver suites.
export { driverContract, echoedCookies, testResolver, visit } from './driver-contract.ts';
export type { ContractDriverOptions, DriverContractFeatures, TestResolver } from './driver-contract.ts';
export { interactionContract } from './interaction-contract.ts';
export type { InteractionContractFeatures } from './interaction-contract.ts';

// Model-provider suite.
export { describeProviderContract, PRODUCT, PRODUCT_SCHEMA } from './llm-contract.ts';
export type { ContractContext, ProviderUnderTest } from './llm-contract.ts';

// The fixture site and a forward proxy, on loopback.
export { FIXTURE_CA, FIXTURE_KEY, LATIN1_TEXT, startFixtureSite } from './fixture-site.ts';
export type { FixtureSite, FixtureSiteOptions, Handler, RecordedRequest as FixtureRequest } from './fixture-site.ts';
export { startForwardProxy } from './forward-proxy.ts';
export type { ForwardProxy, ProxiedRequest } from './forward-proxy.ts';

// The scripted model server, and its fault mode (an imperfect model).
export { startModelServer } from './model-server.ts';
export { MODEL_FAULT_KINDS } from './model-faults.ts';
export type { ModelFaultKind, ModelFaultOptions, PlayedFault } from './model-faults.ts';
export type {
  AnswerStep,
  ModelServer,
  ModelServerOptions,
  RecordedRequest as ModelRequest,
  Script,
  ScriptedModel,
  ScriptedToolCall,
  ScriptedUsage,
  Step,
  WireProtocol,
  WireAnswer,
} from './model-server.ts';

// Assertions.
export { rejection } from './assert.ts';
