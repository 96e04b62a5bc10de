import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bindCommitBody, commitLogDetailQuery, commitLogListQuery, commitLogPage, metadataListBody, updateCommitLogBody, userCommitLogListQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import { presenterFor, type LinkDeps } from '../versions/version-presenter.ts';
import type { CommitLogsService } from './commit-logs.service.ts';

const tags = ['commit-logs'];
const detail = z.object({ id: z.number(), commitId: z.string(), description: z.string(), fileUrls: z.array(z.string()), commitMessage: z.string(), remark: z.string(), commitTime: z.number() });

export function commitLogsRoutes(deps: { logs: CommitLogsService } & LinkDeps): FastifyPluginAsyncZod {
  const { logs } = deps;
  return async (app) => {
    app.get('/api/commit_log_list', { config: { access: 'user' }, schema: { tags, querystring: commitLogListQuery, response: { 200: envelopeSchema(commitLogPage) } } }, async (req) =>
      ok(await logs.list(currentUser(req), req.query, presenterFor(req, deps))),
    );
    app.get('/api/user_commit_log_list', { config: { access: 'user' }, schema: { tags, querystring: userCommitLogListQuery, response: { 200: envelopeSchema(commitLogPage) } } }, async (req) =>
      ok(await logs.userList(currentUser(req), req.query, presenterFor(req, deps))),
    );
    app.post('/api/commit_log/update', { config: { access: 'user' }, schema: { tags, body: updateCommitLogBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await logs.update(currentUser(req), req.body);
      return ok(null);
    });
    app.get('/api/commit_log/detail', { config: { access: 'user' }, schema: { tags, querystring: commitLogDetailQuery, response: { 200: envelopeSchema(detail) } } }, async (req) =>
      ok(await logs.detail(currentUser(req), req.query.commitId, req.query.workflowId)),
    );
    app.post('/api/commit_log/metadata_list', { config: { access: 'user' }, schema: { tags, body: metadataListBody, response: { 200: envelopeSchema(z.record(z.string(), z.string())) } } }, async (req) =>
      ok(await logs.metadataList(currentUser(req), req.body.ids)),
    );
    app.post('/api/app_version/bind_commit', { config: { access: 'user' }, schema: { tags, body: bindCommitBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await logs.bindCommit(currentUser(req), req.body.commitId, req.body.appVersionIds);
      return ok(null);
    });
    app.post(
      '/api/commit_log/wiki_diff',
      {
        config: { access: 'user' },
        schema: {
          tags,
          description: 'Wiki difference (SPEC §7): before/after content of document-edit items.',
          body: metadataListBody,
          response: { 200: envelopeSchema(z.array(z.object({ id: z.number(), objTitle: z.string(), url: z.string().nullable(), event: z.string(), beforeContent: z.string(), afterContent: z.string() }))) },
        },
      },
      async (req) => ok(await logs.wikiDiff(currentUser(req), req.body.ids)),
    );
    app.get('/api/workflow/users', { config: { access: 'user' }, schema: { tags, description: 'Committer names seen in the apps the caller can see.', response: { 200: envelopeSchema(z.array(z.string())) } } }, async (req) =>
      ok(await logs.committers(currentUser(req))),
    );
  };
}
