import { recordOpenApiTally, takeOpenApiProblems } from './openapi-check';

// Each test fails on its own answers that the published OpenAPI document does not describe.
afterEach(async () => {
  const problems = await takeOpenApiProblems();
  if (problems.length > 0) throw new Error(`Answers that differ from the OpenAPI document:\n${problems.join('\n')}`);
});

afterAll(() => {
  recordOpenApiTally();
});
