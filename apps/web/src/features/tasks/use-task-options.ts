import { useQuery } from '@tanstack/react-query';
import { TaskFieldDefaults, type FieldGroupName, type FieldGroups } from '@release/contract';
import { fetchAssignableUsers, fetchFieldGroups } from '../../api/tasks.api.ts';
import { queryKeys } from '../../api/query-keys.ts';

const fallback: FieldGroups = {
  status: [...TaskFieldDefaults.status],
  priority: [...TaskFieldDefaults.priority],
  bugStatus: [...TaskFieldDefaults.bugStatus],
  bugSeverity: [...TaskFieldDefaults.bugSeverity],
  bugPriority: [...TaskFieldDefaults.bugPriority],
  bugType: [...TaskFieldDefaults.bugType],
  moduleName: [],
};

/** field_list of the app (the spec's groups until it answers; a failure is silent) and the people to assign. */
export function useTaskOptions(appId: number) {
  const fields = useQuery({
    queryKey: queryKeys.taskFields(appId),
    queryFn: ({ signal }) => fetchFieldGroups(appId, signal),
    staleTime: 60_000,
  });
  const users = useQuery({
    queryKey: queryKeys.assignableUsers,
    queryFn: ({ signal }) => fetchAssignableUsers(signal),
    staleTime: 60_000,
  });
  const groups = fields.data ?? fallback;
  return {
    groups,
    users: users.data ?? [],
    /** The label of an option value, or the value itself when the group does not know it. */
    labelOf: (group: FieldGroupName, value: string | null | undefined): string => {
      if (!value) return '-';
      return groups[group].find((o) => o.value === value)?.label ?? value;
    },
  };
}
export type TaskOptions = ReturnType<typeof useTaskOptions>;
