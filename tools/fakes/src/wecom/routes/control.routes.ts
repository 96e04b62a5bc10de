import { controlRoute, requireString, type ControlInput } from '../../shared/control.ts';
import { baseControlRoutes } from '../../shared/fake-base.ts';
import type { RouteDef } from '../../shared/http-server.ts';
import type { WecomFake } from '../wecom-fake.ts';
import type { WecomMemberSeed, WecomRobotSeed } from '../wecom-state.ts';

const as = <T>(input: ControlInput): T => input as T;

/** `/__fake/...` routes mirroring the programmatic API (see README). */
export function wecomControlRoutes(fake: WecomFake): RouteDef[] {
  return [
    controlRoute('GET', '/state', () => ({
      now: fake.clock.now(),
      corp: fake.corp,
      members: [...fake.state.members.values()],
      robots: [...fake.state.robots.values()],
      robotMessages: fake.robotMessages,
      robotRejections: fake.state.robotRejections,
    })),
    ...baseControlRoutes(fake),
    controlRoute('POST', '/members', (input) => {
      requireString(input, 'name');
      return fake.addMember(as<WecomMemberSeed>(input));
    }),
    controlRoute('POST', '/robots', (input) => fake.addRobot(as<WecomRobotSeed>(input))),
    controlRoute('POST', '/login/next', (input) => fake.setNextLogin(requireString(input, 'userId'))),
    controlRoute('POST', '/codes', (input) => ({ code: fake.mintCode(requireString(input, 'userId')) })),
    controlRoute('POST', '/tokens/expire', (input) => ({ found: fake.expireToken(requireString(input, 'token')) })),
    controlRoute('POST', '/tokens/revoke', (input) => ({ found: fake.revokeToken(requireString(input, 'token')) })),
  ];
}
