import { Anchor, Button, List, Menu, Text } from '@mantine/core';
import { caseOrderTypes, type CaseDetail } from '@portal/contract';
import { IconChevronDown, IconGitBranch } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { casePath, paths } from '../../../../config/paths.ts';
import { formatDateTime } from '../../../../lib/format-date.ts';

/** The case form's address for an order of `orderType` from a case (docs/decisions/cases.md § Orders from a case). */
const orderFormPath = (caseId: number, orderType: string) =>
  `${paths.cases}?${new URLSearchParams({ from: String(caseId), order: orderType }).toString()}`;

/** "Order from this case": a refinement, retainer or replacement, each opening the form prefilled. */
export function OrderFromCaseMenu({ caseId }: { caseId: number }) {
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconGitBranch size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
        >
          Order from this case
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {caseOrderTypes.map((orderType) => (
          <Menu.Item key={orderType} onClick={() => void navigate(orderFormPath(caseId, orderType))}>
            {orderType}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** "Refinement of AL-...", linking to the case this one was ordered from. */
export function CaseParentLink({ caseRow }: { caseRow: CaseDetail }) {
  if (caseRow.parentCaseId === null || caseRow.orderType === null) return null;
  return (
    <Text size="sm">
      {caseRow.orderType} of{' '}
      <Anchor component={Link} to={casePath(caseRow.parentCaseId)}>
        {caseRow.parentTrackingNo}
      </Anchor>
    </Text>
  );
}

/** The cases ordered from this one, oldest first. */
export function CaseOrderList({ orders }: { orders: CaseDetail['orders'] }) {
  return (
    <List size="sm" spacing={4}>
      {orders.map((order) => (
        <List.Item key={order.caseId}>
          {order.orderType}{' '}
          <Anchor component={Link} to={casePath(order.caseId)} size="sm">
            {order.trackingNo}
          </Anchor>{' '}
          <Text span size="xs" c="dimmed">
            ordered {formatDateTime(order.createdAt)}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
