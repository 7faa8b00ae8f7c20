import { test } from 'node:test';
import { cases } from '../case.mjs';
import { CLI_CASES } from '../cases/cli.mjs';

cases(test, CLI_CASES);
