import { test } from 'node:test';
import { cases } from '../case.mjs';
import { ARTIFACT_CASES } from '../cases/artifact.mjs';

cases(test, ARTIFACT_CASES);
