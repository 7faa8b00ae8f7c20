import { test } from 'node:test';
import { cases } from '../case.mjs';
import { ROOT_CASES } from '../cases/root.mjs';

cases(test, ROOT_CASES);
