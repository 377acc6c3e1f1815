import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild(
    { index: 'src/index.ts', cli: 'src/cli.ts', 'bench-llm': 'src/bench-llm.ts' },
    { dts: { entry: { index: 'src/index.ts' } }, banner: { js: '#!/usr/bin/env node' } },
  ),
);
