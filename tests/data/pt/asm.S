/* Hand-written flow: jrcxz, loop, indirect jmp through a register, a ret
 * whose target was changed on the stack (not compressible), call *mem,
 * then exit via syscall. No libc: _start is the entry. */
	.text
	.globl _start
_start:
	mov $5, %ecx
1:	dec %ecx
	jrcxz 2f
	jmp 1b
2:	mov $3, %ecx
3:	nop
	loop 3b
	lea 4f(%rip), %rax
	jmp *%rax
4:	call 5f
	jmp 6f
5:	lea 6f(%rip), %rdx
	mov %rdx, (%rsp)
	ret
6:	lea fptr(%rip), %rbx
	call *(%rbx)
	mov $60, %eax
	xor %edi, %edi
	syscall
leaf:
	push %rbp
	pop %rbp
	ret
	.data
fptr:	.quad leaf
